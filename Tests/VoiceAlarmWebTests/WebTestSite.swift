import Foundation
import Synchronization
import TestSupport
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmHTTP

@testable import VoiceAlarmWeb

/// Secrets a test can predict: tokens and codes counted up; a digest is the secret reversed and
/// marked, so a test can tell the stored digest from the secret itself.
final class CountingSecrets: SecretSource {
    private let counter = Mutex(0)
    func token() throws -> String { "token-\(counter.withLock { $0 += 1; return $0 })" }
    func code() throws -> String { "CODE\(counter.withLock { $0 += 1; return $0 })" }
    func digest(_ secret: String) -> String { "digest:" + String(secret.reversed()) }
}

/// A clock a test moves.
final class MovableClock: Sendable {
    private let now = Mutex(Date(timeIntervalSince1970: 1_795_000_000))
    func read() -> Date { now.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { now.withLock { $0 += seconds } }
}

/// A real library in a temporary folder with the web application over it, asked in process:
/// the rules of every route in milliseconds. (`ServeTests` asks the real server through the binary.)
final class WebTestSite {
    let folder = TemporaryDirectory("web")
    let clock = MovableClock()
    let secrets = CountingSecrets()
    let application: WebApplication
    let location: LibraryLocation
    /// The session each paired device's page signed for, by the device's id: sent as our page sends it.
    private(set) var sessions: [String: String] = [:]
    static let host = "127.0.0.1:8470"
    static let origin = "http://127.0.0.1:8470"

    init() throws {
        location = LibraryLocation(dataDirectory: folder.file("library"), backend: .embedded)
        let uploads = folder.file("uploads")
        try FileManager.default.createDirectory(atPath: uploads, withIntermediateDirectories: true)
        var configuration = WebApplication.Configuration(location: location, https: false, uploadDirectory: uploads, secrets: secrets)
        let clock = clock
        configuration.now = { clock.read() }
        configuration.uploadLimit = 1024 * 1024
        application = WebApplication(configuration)
        _ = try service()  // the library exists, as 'serve' makes it before it listens
    }

    func service() throws -> AlarmService {
        let clock = clock
        return try LibraryOpener.open(location, now: { clock.read() }, warn: { _ in }).0
    }

    func registry() throws -> DeviceRegistry {
        let clock = clock
        return DeviceRegistry(store: try service().store, secrets: secrets, now: { clock.read() })
    }

    /// A request as a browser on our own page sends it (Host and Origin ours, and for a paired
    /// `device` the session its page signed for, unless `session` says otherwise); `cookie` is a
    /// cookie of the old name another port's page may have set, sent along as a browser would.
    func request(
        _ method: String, _ path: String, device: String? = nil, cookie: String? = nil, session: String?? = nil, bearer: String? = nil,
        origin: String? = WebTestSite.origin, host: String = WebTestSite.host,
        json: String? = nil, body: HTTPBody? = nil, query: [String: String] = [:], client: String = "127.0.0.1"
    ) -> HTTPRequest {
        var headers = ["host": host]
        if let origin { headers["origin"] = origin }
        if let sent = session ?? device.flatMap({ sessions[$0] }) { headers[WebApplication.sessionHeader.lowercased()] = sent }
        if let bearer { headers["authorization"] = "Bearer \(bearer)" }
        var request = HTTPRequest(
            method: method, path: path, query: query, headers: headers,
            cookies: cookie.map { ["voicealarm_device": $0] } ?? [:], clientAddress: client)
        request.body = body ?? json.map { .data(Data($0.utf8)) } ?? .empty
        return request
    }

    /// What the server would do: the body policy first (a refusal there is the answer), then the response.
    func send(_ request: HTTPRequest) -> HTTPResponse {
        var head = request
        head.body = .empty
        if case .respond(let refusal) = application.bodyPolicy(for: head) { return refusal }
        return application.respond(to: request)
    }

    /// A paired browser's device id, its page's session signed with a key of its own.
    func pairedToken(name: String = "Phone") async throws -> String {
        let key = try await BrowserKey.make(in: folder.path)
        let code = try registry().newPairingCode()
        let response = send(request("POST", "/api/pair", json: #"{"code": "\#(code.code)", "name": "\#(name)", "key": "\#(key.publicKey)"}"#))
        guard response.status == 201, let id = (response.json as? [String: Any])?["id"] as? String else {
            throw WebTestFailure("pairing answered \(response.status)")
        }
        sessions[id] = try await session(for: id, key: key)
        return id
    }

    /// A pairing's body for `code`, with a device key of its own.
    func pairBody(_ code: String, name: String = "Phone") async throws -> String {
        let key = try await BrowserKey.make(in: folder.path)
        return #"{"code": "\#(code)", "name": "\#(name)", "key": "\#(key.publicKey)"}"#
    }

    /// A session for a paired device: the challenge asked, signed with `key`, and answered.
    func session(for device: String, key: BrowserKey, origin: String = WebTestSite.origin) async throws -> String {
        let asked = send(request("POST", "/api/session", session: .some(nil), json: #"{"device": "\#(device)"}"#))
        guard let challenge = (asked.json as? [String: Any])?["challenge"] as? String else { throw WebTestFailure("no challenge: \(asked.status)") }
        let signature = try await key.sign(BrowserKey.sessionText(challenge: challenge, origin: origin))
        let opened = send(
            request(
                "POST", "/api/session", session: .some(nil),
                json: #"{"device": "\#(device)", "challenge": "\#(challenge)", "signature": "\#(signature)"}"#))
        guard opened.status == 201, let session = (opened.json as? [String: Any])?["session"] as? String else {
            throw WebTestFailure("no session: \(opened.status) \(opened.errorMessage ?? "")")
        }
        return session
    }
}

struct WebTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension HTTPResponse {
    /// The body as JSON (an object or an array).
    var json: Any? {
        guard case .data(let data) = body else { return nil }
        return try? JSONSerialization.jsonObject(with: data)
    }

    /// `error.message` of an error object, or nil.
    var errorMessage: String? { ((json as? [String: Any])?["error"] as? [String: Any])?["message"] as? String }
}
