import VoiceAlarmHTTP

/// What a request carries to say who sent it: a script's bearer token (`Authorization: Bearer`),
/// or a paired browser's cookie with, from its page, the session it signed for.
struct WebCredential {
    /// The bearer token, or the cookie's when there is none.
    var token: String?
    /// Whether `token` came as a bearer token (a script's), not a cookie (a browser's).
    var isBearer: Bool
    /// The page's session (`X-VoiceAlarm-Session`), when sent.
    var session: String?

    init(_ request: HTTPRequest, cookieName: String, sessionHeader: String) {
        var bearer: String?
        if let authorization = request.header("authorization"), authorization.lowercased().hasPrefix("bearer ") {
            bearer = String(authorization.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        }
        token = bearer ?? request.cookies[cookieName]
        isBearer = bearer != nil
        session = request.header(sessionHeader)
    }
}
