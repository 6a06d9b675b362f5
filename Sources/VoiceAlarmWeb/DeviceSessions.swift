import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmHTTP

/// A paired browser's proof that it is our page in the browser that paired: a signature by the
/// browser's private key, which WebCrypto made non-extractable and which lives in IndexedDB, where
/// only our origin (scheme, host and port) opens it. Nobody else on the machine can serve that
/// origin: it is HTTPS from the library's own authority (`CertificateAuthority`).
///
/// So the page asks for a challenge (a random one-time text, good for a minute), signs
/// `"voicealarm session\n<origin>\n<challenge>"` with its key, and gets a session: a random token
/// kept only in the page's memory and sent as `X-VoiceAlarm-Session`. The server keeps sessions in
/// memory only (a restart ends them; the page starts another), each bound to its device, for
/// `lifetime`. No cookie takes part.
///
/// ```swift
/// let challenge = sessions.challenge(for: device)
/// let session = try sessions.open(for: device, challenge: challenge, signature: signed, origin: "https://127.0.0.1:21000")
/// sessions.device(for: session)   // device.id
/// ```
package final class DeviceSessions: Sendable {
    /// How long a session lasts; the page starts a new one when it ends.
    package static let lifetime: TimeInterval = 12 * 3600
    /// How long a challenge waits to be signed.
    package static let challengeLifetime: TimeInterval = 60
    /// At most this many of each are kept; the oldest go first.
    static let capacity = 512

    /// Why a session was not opened.
    package enum Refusal: Error, Equatable, Sendable {
        /// The device paired before browsers made keys: it pairs again.
        case noKey
        /// The challenge is not one this server gave this device in the last minute (or was used).
        case unknownChallenge
        /// The signature is not the device key's.
        case badSignature
    }

    private struct Pending: Sendable {
        var device: UUID
        var expires: Date
    }

    private struct State: Sendable {
        var challenges: [String: Pending] = [:]
        /// By digest of the session token: a copy of the server's memory gives no session.
        var sessions: [String: Pending] = [:]
    }

    private let state = Locked(State())
    private let secrets: any SecretSource
    private let now: @Sendable () -> Date

    package init(secrets: any SecretSource, now: @escaping @Sendable () -> Date) {
        self.secrets = secrets
        self.now = now
    }

    /// A new challenge for `device` to sign.
    package func challenge(for device: PairedDevice) throws -> String {
        let challenge = try secrets.token()
        let moment = now()
        state.withLock { state in
            Self.trim(&state.challenges, at: moment)
            state.challenges[challenge] = Pending(device: device.id, expires: moment.addingTimeInterval(Self.challengeLifetime))
        }
        return challenge
    }

    /// The text a browser signs for `challenge` on the page at `origin`.
    package static func signedText(challenge: String, origin: String) -> String { "voicealarm session\n\(origin)\n\(challenge)" }

    /// A session for `device` when `signature` is its key's signature of `challenge` on `origin`
    /// (the challenge is used up either way).
    package func open(for device: PairedDevice, challenge: String, signature: Data, origin: String) throws -> (session: String, expires: Date) {
        guard let stored = device.publicKey, let key = try? DevicePublicKey(base64: stored) else { throw Refusal.noKey }
        let moment = now()
        let pending = state.withLock { state in state.challenges.removeValue(forKey: challenge) }
        guard let pending, pending.device == device.id, pending.expires > moment else { throw Refusal.unknownChallenge }
        guard key.verifies(signature: signature, of: Data(Self.signedText(challenge: challenge, origin: origin).utf8)) else {
            throw Refusal.badSignature
        }
        let session = try secrets.token()
        let expires = moment.addingTimeInterval(Self.lifetime)
        state.withLock { state in
            Self.trim(&state.sessions, at: moment)
            state.sessions[secrets.digest(session)] = Pending(device: device.id, expires: expires)
        }
        return (session, expires)
    }

    /// The device a session belongs to while it lasts, or nil.
    package func device(for session: String) -> UUID? {
        guard !session.isEmpty, session.utf8.count <= 200 else { return nil }
        let key = secrets.digest(session)
        let moment = now()
        return state.withLock { state in
            guard let found = state.sessions[key] else { return nil }
            guard found.expires > moment else {
                state.sessions[key] = nil
                return nil
            }
            return found.device
        }
    }

    /// Drops what has expired, then the oldest past `capacity`.
    private static func trim(_ table: inout [String: Pending], at moment: Date) {
        table = table.filter { $0.value.expires > moment }
        while table.count >= capacity, let oldest = table.min(by: { $0.value.expires < $1.value.expires })?.key {
            table[oldest] = nil
        }
    }
}
