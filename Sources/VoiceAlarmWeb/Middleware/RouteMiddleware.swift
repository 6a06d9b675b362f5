import VoiceAlarmHTTP

/// Finds the request's route in the table; a path no route has is a 404, a method its routes do
/// not take a 405 with `Allow`. A browser's request for a service worker's script other than
/// `/sw.js` (`Service-Worker: script`), at any path, is answered with one that removes itself: a
/// worker another program registered while it held this address is then gone at the browser's
/// next check.
struct RouteMiddleware: WebMiddleware {
    let router: WebRouter

    func admit(_ exchange: inout WebExchange) -> HTTPResponse? {
        let request = exchange.request
        // Before any route, the page's own files included: a worker registered at /app.mjs by
        // whoever held this origin is retired too.
        if request.header("service-worker")?.lowercased() == "script", request.path != "/sw.js" { return PageAssets.retiringWorker }
        exchange.match = router.match(method: request.method, segments: request.segments)
        switch exchange.match {
        case .found: return nil
        case .unknown:
            return WebFailure(status: 404, message: "\(LogText.bounded(request.path)): no such page or API route", input: "path").response
        case .methodNotAllowed(let allowed):
            let methods = allowed.joined(separator: ", ")
            return WebFailure(
                status: 405, message: "\(LogText.bounded(request.method, limit: 16)) \(LogText.bounded(request.path)): this route takes \(methods)",
                input: "method"
            ).response.adding("Allow", methods)
        }
    }
}
