import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmFiles
import VoiceAlarmHTTP

/// The web page and its JSON API over the library: every request is read (route, device, origin),
/// handed to the service, and answered with the command line's own `--json` documents. Nothing
/// here rings: the daemon does, whether this runs or not.
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

        package init(location: LibraryLocation, https: Bool, uploadDirectory: String, secrets: any SecretSource) {
            self.location = location
            self.https = https
            self.uploadDirectory = uploadDirectory
            self.secrets = secrets
        }
    }

    /// The cookie a paired browser carries.
    package static let cookieName = "voicealarm_device"
    /// A paired browser stays paired a year unless revoked.
    static let cookieLifetime = 365 * 24 * 3600
    static let jsonLimit = 64 * 1024

    let configuration: Configuration
    private let gate: PairingGate
    /// Called once per request with its route, status and device: the server's log (never a token).
    private let log: @Sendable (String) -> Void

    package init(_ configuration: Configuration, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.configuration = configuration
        self.log = log
        gate = PairingGate(now: configuration.now)
    }

    // MARK: HTTPHandler

    package func bodyPolicy(for request: HTTPRequest) -> HTTPBodyPolicy {
        let route = WebRoute(method: request.method, segments: request.segments)
        let policy: HTTPBodyPolicy = switch route {
        case .addClip: .toFile(directory: configuration.uploadDirectory, limit: configuration.uploadLimit)
        case .pair, .addAlarm, .setVoice, .sayClip, .renameClip, .createPlaylist, .setPlaylist, .setManifesto: .inMemory(limit: Self.jsonLimit)
        default: .inMemory(limit: 0)
        }
        // A request that brings a body is refused before any of it is read; others when whole.
        if case .inMemory(0) = policy { return policy }
        if let refusal = refusal(of: request, route: route) {
            log("\(request.method) \(request.path) \(refusal.status)")
            return .respond(secured(refusal, route: route))
        }
        return policy
    }

    package func respond(to request: HTTPRequest) -> HTTPResponse {
        let route = WebRoute(method: request.method, segments: request.segments)
        let response: HTTPResponse
        if let refusal = refusal(of: request, route: route) {
            response = refusal
        } else {
            response = answer(request, route: route)
        }
        log("\(request.method) \(request.path) \(response.status)")
        return secured(response, route: route)   // libmicrohttpd sends a HEAD's headers only
    }

    // MARK: Who may ask

    /// The answer to a request that may not go on: no device, another site, a method the path
    /// does not take, a body too large. Nil when it may.
    private func refusal(of request: HTTPRequest, route: WebRoute) -> HTTPResponse? {
        switch route {
        case .unknown: return WebFailure(status: 404, message: "\(request.path): no such page or API route", input: request.path).response
        case .methodNotAllowed(let allowed):
            return WebFailure(status: 405, message: "\(request.method) \(request.path): this route takes \(allowed.joined(separator: ", "))", input: request.path)
                .response.adding("Allow", allowed.joined(separator: ", "))
        default: break
        }
        if route.changesState, let problem = OriginCheck.problem(request, https: configuration.https, bearer: credentials(request).bearer != nil) {
            return WebFailure(status: 403, message: problem, input: request.header("origin")).response
        }
        guard !route.isOpen else { return nil }
        switch device(for: request) {
        case .success: return nil
        case .failure(let failure):
            if !route.isAPI && (request.method == "GET" || request.method == "HEAD") {
                return HTTPResponse(status: 303, headers: [("Location", "/pair")])   // a person's browser goes to pairing
            }
            return failure.response
        }
    }

    /// The token a request carries: a bearer token (scripts) or the device cookie (browsers).
    private func credentials(_ request: HTTPRequest) -> (bearer: String?, cookie: String?) {
        var bearer: String?
        if let authorization = request.header("authorization"), authorization.lowercased().hasPrefix("bearer ") {
            bearer = String(authorization.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        }
        return (bearer, request.cookies[Self.cookieName])
    }

    private func device(for request: HTTPRequest) -> Result<PairedDevice, WebFailure> {
        let (bearer, cookie) = credentials(request)
        guard let token = bearer ?? cookie else {
            return .failure(WebFailure(status: 401, message: "this device is not paired: open the pairing link 'voicealarm serve' printed, or send a token ('voicealarm token create')"))
        }
        do {
            // Read only: answered while a command or a rebuild writes, and from a library that
            // cannot be written (Stop from the phone never waits, never fails for it).
            let registry = try DeviceRegistry.reading(configuration.location.dataDirectory, secrets: configuration.secrets, now: configuration.now)
            guard let found = try registry.authenticate(token) else {
                return .failure(WebFailure(status: 401, message: "this device's pairing is not known (revoked, or from another library): pair it again"))
            }
            if registry.needsNoting(found) {
                // When it was seen is worth a quarter of a second's wait at most, never a refusal.
                try? DeviceRegistry.writing(configuration.location.dataDirectory, busyTimeout: 250, secrets: configuration.secrets,
                                            now: configuration.now).noteSeen(found)
            }
            return .success(found)
        } catch {
            return .failure(WebFailure(error))
        }
    }

    // MARK: Answers

    private func answer(_ request: HTTPRequest, route: WebRoute) -> HTTPResponse {
        do {
            switch route {
            case .pairPage: return PageAssets.pairPage
            case .pairScript: return PageAssets.pairScript
            case .style: return PageAssets.style
            case .page: return PageAssets.appPage
            case .appScript: return PageAssets.appScript
            case .pair: return try pair(request)
            case .stop:
                // The rings are stopped from the data dir alone, as 'voicealarm stop' does; the
                // library opens only to cancel their snoozes.
                let location = configuration.location
                let now = configuration.now
                let result = RingStopper.stop(in: location, open: { try LibraryOpener.open(location, now: now).0 })
                return WebAPI.json(200, StoppedJSON(result))
            default: return try withLibrary { service in try WebAPI(service: service, configuration: configuration).answer(route, request) }
            }
        } catch {
            return WebFailure(error).response
        }
    }

    /// `POST /api/pair` `{"code", "name"}`: a waiting code makes this browser a device; its token
    /// goes into an `HttpOnly; Secure; SameSite=Strict` cookie (browsers keep a `Secure` cookie from
    /// loopback HTTP too: it is a secure context) and never into the page.
    private func pair(_ request: HTTPRequest) throws -> HTTPResponse {
        struct Body: Decodable { var code: String; var name: String? }
        let body = try WebAPI.decode(Body.self, from: request)
        return try withLibrary { service in
            let (device, token) = try gate.pair(code: body.code, name: body.name ?? "Browser", from: request.clientAddress, registry: devices(service))
            let cookie = "\(Self.cookieName)=\(token); Path=/; Max-Age=\(Self.cookieLifetime); HttpOnly; Secure; SameSite=Strict"
            return WebAPI.json(201, DeviceJSON(device, service.timeZone)).adding("Set-Cookie", cookie)
        }
    }

    private func devices(_ service: AlarmService) -> DeviceRegistry {
        DeviceRegistry(store: service.store, secrets: configuration.secrets, now: configuration.now)
    }

    /// Opens the library as a command does, for one request.
    private func withLibrary<T>(_ body: (AlarmService) throws -> T) throws -> T {
        let (service, _) = try LibraryOpener.open(configuration.location, now: configuration.now, warn: { [log] warning in log(warning.line) })
        return try body(service)
    }

    /// Every answer: no framing, no sniffing, nothing from elsewhere, no caching of the API.
    private func secured(_ response: HTTPResponse, route: WebRoute) -> HTTPResponse {
        var secured = response
        secured.headers += [
            ("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; media-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
            ("X-Content-Type-Options", "nosniff"),
            ("X-Frame-Options", "DENY"),
            ("Referrer-Policy", "no-referrer"),
            ("Cache-Control", "no-store"),
        ]
        return secured
    }
}
