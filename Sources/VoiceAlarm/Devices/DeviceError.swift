/// A pairing or device request refused, saying what and why.
package enum DeviceError: Error, Equatable, Sendable, CustomStringConvertible {
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

    package var description: String {
        switch self {
        case .wrongCode: "that pairing code is not right (or was used already); run 'voicealarm serve pair' for a new one"
        case .expiredCode: "that pairing code has expired (codes last 10 minutes); run 'voicealarm serve pair' for a new one"
        case .tooManyAttempts(let seconds):
            "too many wrong pairing codes: try again in \(seconds) s"
        case .invalidName(let reason): reason
        case .unknownDevice(let id): "\(id): no such device (see 'voicealarm serve devices')"
        case .ambiguousDevice(let id, let count): "\(id): \(count) devices start with this; give more of the id"
        case .notAnID(let reference): "'\(reference)': not an id (ids are hexadecimal, as 'serve devices' prints them)"
        }
    }

    /// The input the refusal is about, when it names one.
    package var input: String? {
        switch self {
        case .unknownDevice(let id), .ambiguousDevice(let id, _), .notAnID(let id): id
        default: nil
        }
    }
}
