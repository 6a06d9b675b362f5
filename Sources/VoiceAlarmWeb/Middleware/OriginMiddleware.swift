import VoiceAlarmHTTP

/// Refuses (403) a change a browser sent from another site's page (`OriginCheck`); a script's
/// change carries a bearer token instead, which no other site can send.
struct OriginMiddleware: WebMiddleware {
    /// Whether the server speaks HTTPS: a change must then come from an `https://` page.
    let https: Bool

    func admit(_ exchange: inout WebExchange) -> HTTPResponse? {
        guard let endpoint = exchange.endpoint, endpoint.changesState else { return nil }
        let request = exchange.request
        let bearer = WebCredential(request).isBearer
        guard let problem = OriginCheck.problem(request, https: https, bearer: bearer) else { return nil }
        return WebFailure(status: 403, message: problem, input: request.header("origin").map { LogText.bounded($0, limit: 100) }).response
    }
}
