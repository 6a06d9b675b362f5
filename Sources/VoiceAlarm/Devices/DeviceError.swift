import VoiceAlarmCore

/// A pairing or device request refused, saying what and why.
package enum DeviceError: ClassifiedError, Equatable, Sendable, CustomStringConvertible {
    /// No code like this one is waiting (mistyped, already used, or never made).
    case wrongCode
    /// The code was right but more than ten minutes old.
    case expiredCode
    /// Too many wrong codes lately from this address (or from everyone): pairing waits.
    case tooManyAttempts(retryAfterSeconds: Int)
    case invalidName(reason: String)
    case unknownDevice(String)
    case ambiguousDevice(String, count: Int)
    /// A reference with a character no id has, or longer than one, as `IDPrefix.shown` echoes it.
    case notAnID(String)
    /// A request with no device's credential: neither a paired browser's session nor a token.
    case notPaired
    /// A credential no device of this library has (revoked, or from another library).
    case pairingUnknown
    /// A browser paired before pages signed their sessions: it must pair again.
    case pairedBeforeKeys
    /// A paired browser's request without its page's session (or with one that ended).
    case noSession
    /// A session challenge this server did not give this device in the last minute.
    case unknownChallenge
    /// A signature that is not the device key's signature of the challenge.
    case badSignature

    package var description: String {
        switch self {
        case .wrongCode: "that pairing code is not right (or was used already)"
        case .expiredCode: "that pairing code has expired (codes last 10 minutes)"
        case .tooManyAttempts(let seconds):
            "too many wrong pairing codes: try again in \(seconds) s"
        case .invalidName(let reason): reason
        case .unknownDevice(let id): "\(id): no such device"
        case .ambiguousDevice(let id, let count): "\(id): \(count) devices start with this; give more of the id"
        case .notAnID(let reference): "'\(reference)': not an id (ids are hexadecimal)"
        case .notPaired: "this device is not paired"
        case .pairingUnknown: "this device's pairing is not known (revoked, or from another library): pair it again"
        case .pairedBeforeKeys: "this browser was paired before pages signed their sessions: pair it again"
        case .noSession: "this page has no session (or it ended): the page starts a new one"
        case .unknownChallenge: "challenge: not one this server gave this device in the last minute"
        case .badSignature: "signature: not this device's key's signature of the challenge"
        }
    }

    /// As the web answers it: a wrong code 403, too many 429, unknown or unsessioned 401.
    package var failureKind: FailureKind {
        switch self {
        case .wrongCode, .expiredCode, .unknownChallenge, .badSignature: .forbidden
        case .tooManyAttempts(let seconds): .limited(retryAfter: seconds)
        case .invalidName, .notAnID: .invalid
        case .unknownDevice: .notFound
        case .ambiguousDevice: .conflict
        case .notPaired, .pairingUnknown, .pairedBeforeKeys, .noSession: .unauthenticated
        }
    }

    package var failureInput: String? { input }

    /// The input the refusal is about, when it names one.
    package var input: String? {
        switch self {
        case .unknownDevice(let id), .ambiguousDevice(let id, _), .notAnID(let id): id
        case .pairedBeforeKeys: "pairing"
        case .noSession: "session"
        case .unknownChallenge: "challenge"
        case .badSignature: "signature"
        default: nil
        }
    }
}
