import VoiceAlarmCore
import VoiceAlarmHTTP

/// A request on its way through the middleware: what each step found out about it (its route,
/// its credential, its device) for the next step and the handler.
struct WebExchange {
    let request: HTTPRequest
    /// The route the request names (set by `RouteMiddleware`).
    var match: WebRouter.Match = .unknown
    /// The device or token that sent it (set by `DeviceMiddleware`).
    var device: PairedDevice?

    /// The route found for it, if any.
    var endpoint: WebEndpoint? {
        if case .found(let endpoint, _) = match { endpoint } else { nil }
    }
}
