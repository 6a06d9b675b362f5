import VoiceAlarmHTTP

/// One step every request passes on its way to its route's handler, as Hummingbird's middleware
/// are: `admit` answers the request itself (a refusal) or lets it on, before its body is read;
/// `finish` completes every answer on its way back, refusals included. The application runs
/// them in order: Host → route → origin → device → (body) → handler → headers.
protocol WebMiddleware: Sendable {
    /// Nil lets the request on; an answer refuses it (no later step and no handler runs).
    func admit(_ exchange: inout WebExchange) -> HTTPResponse?
    /// The answer as it leaves this step.
    func finish(_ response: HTTPResponse, _ exchange: WebExchange) -> HTTPResponse
}

extension WebMiddleware {
    func admit(_ exchange: inout WebExchange) -> HTTPResponse? { nil }
    func finish(_ response: HTTPResponse, _ exchange: WebExchange) -> HTTPResponse { response }
}
