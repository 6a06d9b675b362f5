import Foundation
import TestSupport
import Testing

/// A client paired as a browser is: its own device key (`BrowserKey`), the device's id pairing
/// answered, and the session its key signed for. `curl` holds the session, as our page sends it.
struct PairedBrowser {
    var key: BrowserKey
    var device: String
    var session: String

    /// curl's arguments for the session header.
    var curl: [String] { ["-H", "X-VoiceAlarm-Session: \(session)"] }
}

extension ServeProcess {
    /// Pairs with the code the server printed (or `code`), then signs for a session.
    func pairBrowser(name: String = "Phone", code: String? = nil) async throws -> PairedBrowser {
        let key = try await BrowserKey.make(in: ProcessFolder.path)  // never left in the temporary directory
        let body = #"{"code": "\#(code ?? self.code)", "name": "\#(name)", "key": "\#(key.publicKey)"}"#
        let paired = try await curl("POST", "/api/pair", ["-H", "Content-Type: application/json", "-d", body])
        guard paired.status == 201, let device = (paired.json as? [String: Any])?["id"] as? String else {
            throw TestSupportError("pairing answered \(paired.status): \(paired.body)")
        }
        return PairedBrowser(key: key, device: device, session: try await session(device: device, key: key))
    }

    /// A new session for a paired device, signed with `key`.
    func session(device: String, key: BrowserKey, extra: [String] = []) async throws -> String {
        let json = ["-H", "Content-Type: application/json"] + extra
        let asked = try await curl("POST", "/api/session", json + ["-d", #"{"device": "\#(device)"}"#])
        guard let challenge = (asked.json as? [String: Any])?["challenge"] as? String else {
            throw TestSupportError("no challenge: \(asked.status) \(asked.body)")
        }
        let signature = try await key.sign(BrowserKey.sessionText(challenge: challenge, origin: url))
        let opened = try await curl(
            "POST", "/api/session", json + ["-d", #"{"device": "\#(device)", "challenge": "\#(challenge)", "signature": "\#(signature)"}"#])
        guard opened.status == 201, let session = (opened.json as? [String: Any])?["session"] as? String else {
            throw TestSupportError("no session: \(opened.status) \(opened.body)")
        }
        return session
    }
}
