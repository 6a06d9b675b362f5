import Foundation
import TestSupport
import Testing

/// A client paired as a browser is: its own device key (`BrowserKey`), the cookie pairing set,
/// and the session its key signed for. `curl` holds both, as our page sends them.
struct PairedBrowser {
    var key: BrowserKey
    var cookie: String
    var session: String

    /// curl's arguments for the cookie and the session header.
    var curl: [String] { ["-b", "voicealarm_device=\(cookie)", "-H", "X-VoiceAlarm-Session: \(session)"] }
}

extension ServeProcess {
    /// Pairs with the code the server printed (or `code`), then signs for a session.
    func pairBrowser(name: String = "Phone", code: String? = nil) async throws -> PairedBrowser {
        let key = try await BrowserKey.make(in: NSTemporaryDirectory())
        let body = #"{"code": "\#(code ?? self.code)", "name": "\#(name)", "key": "\#(key.publicKey)"}"#
        let paired = try await curl("POST", "/api/pair", ["-H", "Content-Type: application/json", "-d", body])
        guard paired.status == 201, let cookie = paired.cookieToken else { throw TestSupportError("pairing answered \(paired.status): \(paired.body)") }
        return PairedBrowser(key: key, cookie: cookie, session: try await session(cookie: cookie, key: key))
    }

    /// A new session for a paired cookie, signed with `key`.
    func session(cookie: String, key: BrowserKey) async throws -> String {
        let json = ["-H", "Content-Type: application/json", "-b", "voicealarm_device=\(cookie)"]
        let asked = try await curl("POST", "/api/session", json + ["-d", "{}"])
        guard let challenge = (asked.json as? [String: Any])?["challenge"] as? String else {
            throw TestSupportError("no challenge: \(asked.status) \(asked.body)")
        }
        let signature = try await key.sign(BrowserKey.sessionText(challenge: challenge, origin: url))
        let opened = try await curl("POST", "/api/session", json + ["-d", #"{"challenge": "\#(challenge)", "signature": "\#(signature)"}"#])
        guard opened.status == 201, let session = (opened.json as? [String: Any])?["session"] as? String else {
            throw TestSupportError("no session: \(opened.status) \(opened.body)")
        }
        return session
    }
}
