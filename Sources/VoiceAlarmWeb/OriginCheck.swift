import VoiceAlarmHTTP

/// The rule against requests forged by another site: a change sent by a browser must come from
/// this server's own page (its `Origin` is this server's scheme and host); a script's change
/// carries a bearer token instead, which no other site can send.
enum OriginCheck {
    /// Why the change may not go on, or nil.
    static func problem(_ request: HTTPRequest, https: Bool, bearer: Bool) -> String? {
        guard let origin = request.header("origin") else {
            return bearer ? nil : "a change from a browser must say which page sent it (no Origin header); scripts send 'Authorization: Bearer TOKEN'"
        }
        let own = (https ? "https://" : "http://") + (request.header("host") ?? "")
        guard request.header("host") != nil, origin.lowercased() == own.lowercased() else {
            return "a change from '\(origin)' is refused: changes come only from this server's own page (\(own))"
        }
        return nil
    }
}
