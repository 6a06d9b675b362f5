import VoiceAlarmHTTP

/// What a request carries to say who sent it: a script's bearer token (`Authorization: Bearer`),
/// or a paired browser's session, which its page signed for with the browser's key. No cookie
/// counts: browsers send a host's cookies to every port of it, so any local account's page can
/// read or overwrite one, and a cookie could then only get in the way of a key that signs.
struct WebCredential {
    /// The bearer token, when sent.
    var token: String?
    /// The page's session (`X-VoiceAlarm-Session`), when sent.
    var session: String?

    init(_ request: HTTPRequest) {
        if let authorization = request.header("authorization"), authorization.lowercased().hasPrefix("bearer ") {
            token = String(authorization.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        }
        session = request.header(WebApplication.sessionHeader)
    }

    /// Whether a script's token came with the request.
    var isBearer: Bool { token != nil }
}
