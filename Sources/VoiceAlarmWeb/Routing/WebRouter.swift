import VoiceAlarmHTTP

/// Finds a request's route in the table from its method and path alone. Ids and names stay text
/// in the parameters: they are looked up in the library, never joined into a path.
package struct WebRouter: Sendable {
    /// What a method and path name.
    package enum Match: Sendable {
        /// A route, with its path's parameters.
        case found(WebEndpoint, parameters: [String: String])
        /// A path no route has.
        case unknown
        /// A path routes have, with a method none of them takes.
        case methodNotAllowed(allowed: [String])
    }

    package let endpoints: [WebEndpoint]

    package init(_ endpoints: [WebEndpoint]) {
        for (i, endpoint) in endpoints.enumerated() {
            precondition(
                !endpoints[..<i].contains { $0.method == endpoint.method && $0.path == endpoint.path }, "\(endpoint.method) \(endpoint.path) declared twice")
        }
        self.endpoints = endpoints
    }

    /// The route for `method` and `segments`. `HEAD` is answered as `GET`.
    package func match(method: String, segments: [String]) -> Match {
        let candidates = endpoints.compactMap { endpoint in endpoint.parameters(segments).map { (endpoint, $0) } }
        guard let most = candidates.map(\.0.literalCount).max() else { return .unknown }
        let closest = candidates.filter { $0.0.literalCount == most }
        if let (endpoint, parameters) = closest.first(where: { $0.0.method == method || (method == "HEAD" && $0.0.method == "GET") }) {
            return .found(endpoint, parameters: parameters)
        }
        return .methodNotAllowed(allowed: closest.map(\.0.method))
    }
}
