import VoiceAlarmHTTP

/// One route of the web page and its API, declared once in `WebRoutes.all`: its method and path,
/// who may ask it, the body it takes, and the handler that answers it. The middleware reads the
/// same declaration (who may ask, whether it changes anything, what body to read), so a route
/// cannot be added without saying who may use it.
///
/// ```swift
/// WebEndpoint("DELETE", "/api/alarms/{id}", .paired, AlarmHandlers.remove)
/// ```
package struct WebEndpoint: Sendable {
    /// Who may ask a route.
    package enum Access: Sendable, Equatable {
        /// Anyone, paired or not: the page's own files, pairing, and the session handshake.
        case open
        /// A paired device: a script's token, or a browser's session its page signed for with
        /// the browser's key (and its cookie, when the browser keeps one).
        case paired
    }

    /// What a route's request carries after its head.
    package enum Body: Sendable, Equatable {
        /// Nothing: a body is refused before any of it is read.
        case none
        /// A small JSON document, read into memory.
        case json
        /// A recording, streamed to a private file.
        case upload
    }

    package let method: String
    /// `/api/alarms/{id}/voice`: literal segments, and `{name}` for a parameter.
    package let path: String
    package let access: Access
    package let body: Body
    let handler: @Sendable (WebContext) throws -> HTTPResponse
    /// The path's segments, split once when the route is declared: literal text, or a parameter's name.
    let pattern: [Segment]

    init(_ method: String, _ path: String, _ access: Access, body: Body = .none, _ handler: @escaping @Sendable (WebContext) throws -> HTTPResponse) {
        precondition(path.hasPrefix("/"), "a route's path starts with /: \(path)")
        self.method = method
        self.path = path
        self.access = access
        self.body = body
        self.handler = handler
        pattern = path.split(separator: "/").map {
            $0.hasPrefix("{") && $0.hasSuffix("}") ? .parameter(String($0.dropFirst().dropLast())) : .literal(String($0))
        }
    }

    /// Whether it changes anything, and so must come from our own page or a token.
    package var changesState: Bool { method != "GET" && method != "HEAD" }

    enum Segment: Equatable { case literal(String), parameter(String) }

    /// The parameters `segments` give this path, or nil when they are not this path.
    func parameters(_ segments: [String]) -> [String: String]? {
        guard pattern.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (part, segment) in zip(pattern, segments) {
            switch part {
            case .literal(let text): guard text == segment else { return nil }
            case .parameter(let name): parameters[name] = segment
            }
        }
        return parameters
    }

    /// How many of its segments are literal: a literal path (`/api/clips/say`) wins over a
    /// parameter at the same place (`/api/clips/{id}`).
    var literalCount: Int { pattern.filter { if case .literal = $0 { true } else { false } }.count }
}
