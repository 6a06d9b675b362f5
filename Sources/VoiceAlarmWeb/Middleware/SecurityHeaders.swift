import VoiceAlarmHTTP

/// Every answer the application makes, refusals and ranges included: no framing, no sniffing,
/// nothing loaded from elsewhere, no referrer, no caching.
struct SecurityHeaders: WebMiddleware {
    static let headers: [(String, String)] = [
        (
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; manifest-src 'self'; worker-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
    ]

    func finish(_ response: HTTPResponse, _ exchange: WebExchange) -> HTTPResponse {
        var secured = response
        secured.headers += Self.headers
        return secured
    }
}
