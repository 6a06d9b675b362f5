import VoiceAlarmWeb

/// The web page's routes that need a paired device or a token, with a method each takes, read
/// from the one route table (`WebRoutes.all`): what the in-process and the real-server tests
/// both refuse without one, so a route added to the table is attacked without a line here.
public enum GuardedRoutes {
    /// What each path parameter is given: an id that looks like one, a playlist's name.
    static let samples = ["id": "9c41d2e0", "name": "morning", "target": "morning"]

    public static let all: [(String, String)] = WebRoutes.all.filter { $0.access != .open }.map { endpoint in
        let path = samples.reduce(endpoint.path) { path, sample in path.replacingOccurrences(of: "{\(sample.key)}", with: sample.value) }
        precondition(!path.contains("{"), "a sample for every parameter of \(endpoint.path)")
        return (endpoint.method, path)
    }

    /// The routes open to anyone: the pairing page and what it needs.
    public static let open: [(String, String)] = WebRoutes.all.filter { $0.access == .open }.map { ($0.method, $0.path) }
}
