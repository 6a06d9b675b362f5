import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmFiles
import VoiceAlarmHTTP

/// The web page and its JSON API over the library: every request passes the middleware (Host,
/// route, origin, device), its route's handler (`WebRoutes`) calls the service, and the answer is
/// the command line's own `--json` document with the security headers. Nothing here rings: the
/// daemon does, whether this runs or not.
///
/// Each request opens the library as a command would (SQLite keeps requests, commands and the
/// daemon consistent with each other), so requests need no lock and a slow one (a rebuild) holds
/// no other.
package final class WebApplication: HTTPHandler, @unchecked Sendable {
    package struct Configuration: Sendable {
        package var location: LibraryLocation
        /// Whether the server speaks HTTPS: a change must then come from an `https://` page.
        package var https: Bool
        /// The most an upload may be: a 10-minute recording in any format a browser records fits.
        package var uploadLimit = 100 * 1024 * 1024
        /// Where uploads wait while they arrive (private; emptied of leftovers at start).
        package var uploadDirectory: String
        package var secrets: any SecretSource
        package var now: @Sendable () -> Date = Date.init
        /// The names and addresses (lowercased, without a port) a request's `Host` may name:
        /// anything else is refused before a route is read (`HostCheck`).
        package var hosts: Set<String> = ["127.0.0.1", "localhost", "::1"]
        /// The library's authority, which the pairing page offers a phone to trust; nil when the
        /// person's own certificate serves.
        package var authority: AuthorityFile?

        package init(location: LibraryLocation, https: Bool, uploadDirectory: String, secrets: any SecretSource) {
            self.location = location
            self.https = https
            self.uploadDirectory = uploadDirectory
            self.secrets = secrets
        }
    }

    /// The library's certificate authority as a phone downloads it: its DER bytes and fingerprint.
    package struct AuthorityFile: Sendable {
        package var der: Data
        package var fingerprint: String
        package init(der: Data, fingerprint: String) {
            self.der = der
            self.fingerprint = fingerprint
        }
    }

    /// The largest JSON body a route reads.
    static let jsonLimit = 64 * 1024

    /// The header a paired browser's page sends its session in (`DeviceSessions`).
    package static let sessionHeader = "X-VoiceAlarm-Session"

    let configuration: Configuration
    private let gate: PairingGate
    private let sessions: DeviceSessions
    private let health = HealthCache()
    /// The page's whole state, kept for every tab's long poll.
    private let live: LiveState
    private let port = ListeningPort()
    /// Called once per request with its route, status and device: the server's log (never a token).
    private let log: @Sendable (String) -> Void
    /// The steps every request passes, in order (Host → route → origin → device), and on the
    /// way back (the security headers).
    private let middleware: [any WebMiddleware]

    package init(_ configuration: Configuration, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.configuration = configuration
        self.log = log
        gate = PairingGate(now: configuration.now)
        sessions = DeviceSessions(secrets: configuration.secrets, now: configuration.now)
        live = Self.liveState(configuration, health: health, log: log)
        middleware = [
            SecurityHeaders(),
            HostMiddleware(hosts: configuration.hosts, port: port),
            RouteMiddleware(router: WebRoutes.router),
            OriginMiddleware(https: configuration.https),
            DeviceMiddleware(configuration: configuration, sessions: sessions),
        ]
    }

    /// The page's state over this library: watched through `ChangeSignals`, built as `WebState`.
    private static func liveState(_ configuration: Configuration, health: HealthCache, log: @escaping @Sendable (String) -> Void) -> LiveState {
        let location = configuration.location, now = configuration.now
        return LiveState(
            signals: { ChangeSignals.read(dataDirectory: location.dataDirectory, now: now()) },
            build: {
                // Built when something moved (a daemon started, say) or every 15 s: the machine is
                // examined again each time, so the page's health follows within the long poll's look.
                health.forget()
                let (service, _) = try LibraryOpener.open(location, now: now, warn: { log($0.line) })
                let devices = DeviceRegistry(store: service.store, secrets: configuration.secrets, now: now)
                return Data(JSONOutput.encode(try WebState(service: service, location: location, cache: health, devices: devices)).utf8)
            })
    }

    /// Ends the page's waits for a change at once: the server is stopping.
    package func stop() { live.close() }

    /// Tells the application the port its server listens on: a `Host` naming another is refused.
    package func listening(on port: Int) { self.port.set(port) }

    // MARK: HTTPHandler

    /// What to read of a request's body, from its route: nothing, a small JSON document, or a
    /// recording streamed to a private file. A request that brings a body is refused (by the
    /// same middleware) before any of it is read; others when whole.
    package func bodyPolicy(for request: HTTPRequest) -> HTTPBodyPolicy {
        let policy: HTTPBodyPolicy
        switch WebRoutes.router.match(method: request.method, segments: request.segments) {
        case .found(let endpoint, _) where endpoint.body == .upload:
            policy = .toFile(directory: configuration.uploadDirectory, limit: configuration.uploadLimit)
        case .found(let endpoint, _) where endpoint.body == .json:
            policy = .inMemory(limit: Self.jsonLimit)
        default:
            return .inMemory(limit: 0)
        }
        var exchange = WebExchange(request: request)
        if let refusal = admit(&exchange) {
            log("\(Self.logged(request)) \(refusal.status)")
            return .respond(finish(refusal, exchange))
        }
        return policy
    }

    package func respond(to request: HTTPRequest) -> HTTPResponse {
        var exchange = WebExchange(request: request)
        let response: HTTPResponse
        if let refusal = admit(&exchange) {
            response = refusal
        } else if case .found(let endpoint, let parameters) = exchange.match {
            let context = WebContext(
                request: request, parameters: parameters, device: exchange.device, configuration: configuration,
                gate: gate, sessions: sessions, health: health, live: live, log: log)
            do { response = try endpoint.handler(context) } catch { response = WebFailure(error).response }
            // A change made here may change what the status says (a new alarm, a started service).
            if endpoint.changesState { health.forget() }
        } else {
            preconditionFailure("the route middleware admits only a request with a route")
        }
        log("\(Self.logged(request)) \(response.status)")
        return finish(response, exchange)  // libmicrohttpd sends a HEAD's headers only
    }

    /// The first refusal of the middleware, in order; nil when every step lets the request on.
    /// A refusal closes its connection: whoever is not paired holds none open.
    private func admit(_ exchange: inout WebExchange) -> HTTPResponse? {
        for step in middleware {
            if let refusal = step.admit(&exchange) { return refusal.adding("Connection", "close") }
        }
        return nil
    }

    /// The answer through every step on its way back, last step first.
    private func finish(_ response: HTTPResponse, _ exchange: WebExchange) -> HTTPResponse {
        middleware.reversed().reduce(response) { response, step in step.finish(response, exchange) }
    }

    /// The request as the log shows it: method and path bounded and escaped, never the query
    /// (a pairing link's code) nor a header.
    private static func logged(_ request: HTTPRequest) -> String {
        "\(LogText.bounded(request.method, limit: 16)) \(LogText.bounded(request.path))"
    }
}
