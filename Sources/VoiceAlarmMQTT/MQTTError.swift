import Foundation
import VoiceAlarmCore

/// Why talking to the MQTT broker failed, typed so the bridge decides on the case: a broker it
/// cannot reach yet is tried again; credentials or a certificate it refuses end the bridge.
package enum MQTTError: ClassifiedError, Equatable, Sendable, CustomStringConvertible {
    /// The broker could not be reached (refused, unreachable, no such host): tried again.
    case unreachable(String)
    /// The connection was lost after it was made: tried again.
    case lost(String)
    /// The broker's TLS certificate did not verify against the CA given, or TLS failed.
    case tls(String)
    /// The broker refused the connection (CONNACK): wrong user name or password, not authorised.
    case refused(code: Int, reason: String)
    /// libmosquitto refused a call for a reason of ours (a topic or payload it does not take).
    case rejected(String)

    /// Whether trying again later may work (the broker down or unreachable), as opposed to a
    /// refusal that repeats until the person changes something.
    package var isTransient: Bool {
        switch self {
        case .unreachable, .lost: true
        case .tls, .refused, .rejected: false
        }
    }

    package var failureKind: FailureKind { .environment }
    package var failureInput: String? { nil }

    package var description: String {
        switch self {
        case .unreachable(let why): "cannot reach the broker: \(why)"
        case .lost(let why): "the connection to the broker was lost: \(why)"
        case .tls(let why): "TLS with the broker failed (does --tls-ca name the CA that signed the broker's certificate?): \(why)"
        case .refused(let code, let reason): "the broker refused the connection: \(reason) (CONNACK \(code))"
        case .rejected(let why): why
        }
    }
}
