import Foundation
import Synchronization
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
        /// The names and addresses (lowercased, without a port) a request's `Host` may name:
        /// anything else is refused before a route is read (`HostCheck`).
        package var hosts: Set<String> = ["127.0.0.1", "localhost", "::1"]

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

    /// The header a paired browser's page sends its session in (`DeviceSessions`).
    package static let sessionHeader = "X-VoiceAlarm-Session"

    let configuration: Configuration
    private let gate: PairingGate
    private let sessions: DeviceSessions
    /// The port the server listens on, once it does (port 0 asks the kernel to choose).
    private let port = Mutex<Int?>(nil)
    /// Called once per request with its route, status and device: the server's log (never a token).
    private let log: @Sendable (String) -> Void

    package init(_ configuration: Configuration, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.configuration = configuration
        self.log = log
        gate = PairingGate(now: configuration.now)
        sessions = DeviceSessions(secrets: configuration.secrets, now: configuration.now)
    }

    /// Tells the application the port its server listens on: a `Host` naming another is refused.
    package func listening(on port: Int) { self.port.withLock { $0 = port } }

    // MARK: HTTPHandler

    package func bodyPolicy(for request: HTTPRequest) -> HTTPBodyPolicy {
        let route = WebRoute(method: request.method, segments: request.segments)
        let policy: HTTPBodyPolicy = switch route {
        case .addClip: .toFile(directory: configuration.uploadDirectory, limit: configuration.uploadLimit)
        case .pair, .session, .addAlarm, .setVoice, .sayClip, .renameClip, .createPlaylist, .setPlaylist, .setManifesto: .inMemory(limit: Self.jsonLimit)
        default: .inMemory(limit: 0)
        }
        // A request that brings a body is refused before any of it is read; others when whole.
        if case .inMemory(0) = policy { return policy }
        if let refusal = refusal(of: request, route: route) {
            log("\(Self.logged(request)) \(refusal.status)")
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
        log("\(Self.logged(request)) \(response.status)")
        return secured(response, route: route)   // libmicrohttpd sends a HEAD's headers only
    }

    /// The request as the log shows it: method and path bounded and escaped, never the query
    /// (a pairing link's code) nor a header.
    private static func logged(_ request: HTTPRequest) -> String {
        "\(LogText.bounded(request.method, limit: 16)) \(LogText.bounded(request.path))"
    }

    // MARK: Who may ask

    /// The answer to a request that may not go on: another host's name, no device, another
    /// site, a method the path does not take, a body too large. Nil when it may. A refusal
    /// closes its connection: whoever is not paired holds none open.
    private func refusal(of request: HTTPRequest, route: WebRoute) -> HTTPResponse? {
        refusalKeepingConnection(of: request, route: route)?.adding("Connection", "close")
    }

    private func refusalKeepingConnection(of request: HTTPRequest, route: WebRoute) -> HTTPResponse? {
        if let problem = HostCheck.problem(request, hosts: configuration.hosts, port: port.withLock { $0 }) {
            return WebFailure(status: 421, message: problem, input: "Host").response
        }
        switch route {
        case .unknown: return WebFailure(status: 404, message: "\(LogText.bounded(request.path)): no such page or API route", input: "path").response
        case .methodNotAllowed(let allowed):
            return WebFailure(status: 405, message: "\(LogText.bounded(request.method, limit: 16)) \(LogText.bounded(request.path)): this route takes \(allowed.joined(separator: ", "))",
                              input: "method").response.adding("Allow", allowed.joined(separator: ", "))
        default: break
        }
        let credential = WebCredential(request, cookieName: Self.cookieName, sessionHeader: Self.sessionHeader)
        if route.changesState, let problem = OriginCheck.problem(request, https: configuration.https, bearer: credential.isBearer) {
            return WebFailure(status: 403, message: problem, input: request.header("origin").map { LogText.bounded($0, limit: 100) }).response
        }
        guard !route.isOpen else { return nil }
        switch device(for: credential, route: route) {
        case .success: return nil
        case .failure(let failure):
            if !route.isAPI && (request.method == "GET" || request.method == "HEAD") {
                return HTTPResponse(status: 303, headers: [("Location", "/pair")])   // a person's browser goes to pairing
            }
            return failure.response
        }
    }

    /// The device behind a request: a script's bearer token, or a paired browser's cookie — with
    /// the session its page signed for, on every route but the page itself and the handshake.
    private func device(for credential: WebCredential, route: WebRoute) -> Result<PairedDevice, WebFailure> {
        guard let token = credential.token else {
            return .failure(WebFailure(status: 401, message: "this device is not paired: open the pairing link 'voicealarm serve' printed, or send a token ('voicealarm token create')"))
        }
        let found: PairedDevice
        do {
            // Read only: answered while a command or a rebuild writes, and from a library that
            // cannot be written (Stop from the phone never waits, never fails for it).
            let registry = try DeviceRegistry.reading(configuration.location.dataDirectory, secrets: configuration.secrets, now: configuration.now)
            // A browser's cookie is no bearer token (another port's page saw it), nor a token a cookie.
            guard let device = try registry.authenticate(token), device.kind == (credential.isBearer ? .token : .browser) else {
                return .failure(WebFailure(status: 401, message: "this device's pairing is not known (revoked, or from another library): pair it again"))
            }
            found = device
            if registry.needsNoting(device) {
                // When it was seen is worth a quarter of a second's wait at most, never a refusal.
                try? DeviceRegistry.writing(configuration.location.dataDirectory, busyTimeout: 250, secrets: configuration.secrets,
                                            now: configuration.now).noteSeen(device)
            }
        } catch {
            return .failure(WebFailure(error))
        }
        guard found.kind == .browser, route.needsSession else { return .success(found) }
        guard found.publicKey != nil else {
            return .failure(WebFailure(status: 401, message: "this browser was paired before pages signed their sessions: pair it again", input: "pairing"))
        }
        guard let session = credential.session, sessions.device(for: session) == found.id else {
            return .failure(WebFailure(status: 401, message: "this page has no session (or it ended): the page starts a new one", input: "session"))
        }
        return .success(found)
    }

    // MARK: Answers

    private func answer(_ request: HTTPRequest, route: WebRoute) -> HTTPResponse {
        do {
            switch route {
            case .pairPage: return PageAssets.pairPage
            case .pairScript: return PageAssets.pairScript
            case .deviceScript: return PageAssets.deviceScript
            case .style: return PageAssets.style
            case .page: return PageAssets.appPage
            case .appScript: return PageAssets.appScript
            case .pair: return try pair(request)
            case .session: return try session(request)
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

    /// `POST /api/pair` `{"code", "name", "key"}`: a waiting code makes this browser a device
    /// with its public key (`DevicePublicKey`); its token goes into an `HttpOnly; Secure;
    /// SameSite=Strict` cookie (browsers keep a `Secure` cookie from loopback HTTP too: it is a
    /// secure context) and never into the page.
    private func pair(_ request: HTTPRequest) throws -> HTTPResponse {
        struct Body: Decodable { var code: String; var name: String?; var key: String? }
        let body = try WebAPI.decode(Body.self, from: request)
        guard let text = body.key else {
            throw WebFailure(status: 400, message: "key: a browser pairs with its own public key (this page's script makes one)", input: "key", code: 64)
        }
        let key: DevicePublicKey
        do { key = try DevicePublicKey(base64: text) } catch { throw WebFailure(status: 400, message: "key: \(error)", input: "key", code: 64) }
        return try withLibrary { service in
            let (device, token) = try gate.pair(code: body.code, name: body.name ?? "Browser", publicKey: key.base64,
                                                from: request.clientAddress, registry: devices(service))
            let cookie = "\(Self.cookieName)=\(token); Path=/; Max-Age=\(Self.cookieLifetime); HttpOnly; Secure; SameSite=Strict"
            return WebAPI.json(201, DeviceJSON(device, service.timeZone)).adding("Set-Cookie", cookie)
        }
    }

    /// `POST /api/session`: `{}` asks for a challenge, `{"challenge", "signature"}` (base64 of the
    /// device key's ECDSA-SHA256 signature of `DeviceSessions.signedText`) opens a session.
    private func session(_ request: HTTPRequest) throws -> HTTPResponse {
        struct Body: Decodable { var challenge: String?; var signature: String? }
        let body = request.body == .empty ? Body() : try WebAPI.decode(Body.self, from: request)
        let registry = try DeviceRegistry.reading(configuration.location.dataDirectory, secrets: configuration.secrets, now: configuration.now)
        guard let token = WebCredential(request, cookieName: Self.cookieName, sessionHeader: Self.sessionHeader).token,
              let device = try registry.authenticate(token), device.kind == .browser else {
            throw WebFailure(status: 401, message: "this device is not paired: open the pairing link 'voicealarm serve' printed")
        }
        guard let challenge = body.challenge else {
            guard device.publicKey != nil else {
                throw WebFailure(status: 401, message: "this browser was paired before pages signed their sessions: pair it again", input: "pairing")
            }
            return WebAPI.json(200, ["challenge": try sessions.challenge(for: device)])
        }
        guard let signature = body.signature.flatMap({ Data(base64Encoded: $0) }) else {
            throw WebFailure(status: 400, message: "signature: the challenge's signature, base64", input: "signature", code: 64)
        }
        let origin = (configuration.https ? "https://" : "http://") + (request.header("host") ?? "")
        do {
            let (session, expires) = try sessions.open(for: device, challenge: challenge, signature: signature, origin: origin)
            return WebAPI.json(201, SessionJSON(session: session, expires: expires))
        } catch let refusal as DeviceSessions.Refusal {
            switch refusal {
            case .noKey: throw WebFailure(status: 401, message: "this browser was paired before pages signed their sessions: pair it again", input: "pairing")
            case .unknownChallenge: throw WebFailure(status: 403, message: "challenge: not one this server gave this device in the last minute", input: "challenge")
            case .badSignature: throw WebFailure(status: 403, message: "signature: not this device's key's signature of the challenge", input: "signature")
            }
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
            ("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
            ("X-Content-Type-Options", "nosniff"),
            ("X-Frame-Options", "DENY"),
            ("Referrer-Policy", "no-referrer"),
            ("Cache-Control", "no-store"),
        ]
        return secured
    }
}
