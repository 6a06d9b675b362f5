import Foundation
import Synchronization
import VoiceAlarmCore

/// The one way a browser pairs: the code checked against the library, and wrong codes counted
/// per client address (`PairingLimits`) for as long as the server runs. Shared by every request
/// of a server, from any thread.
package final class PairingGate: Sendable {
    private let limits = Mutex(PairingLimits())
    private let now: @Sendable () -> Date

    package init(now: @escaping @Sendable () -> Date) { self.now = now }

    /// Pairs a browser from `address` with `code`; refused while that address (or everyone) has
    /// guessed too often, and a wrong or expired code counts against it.
    package func pair(code: String, name: String, from address: String, registry: DeviceRegistry) throws -> (device: PairedDevice, token: String) {
        let moment = now()
        if let wait = limits.withLock({ $0.closedFor(address, at: moment) }) { throw DeviceError.tooManyAttempts(retryAfterSeconds: wait) }
        do {
            return try registry.pair(code: code, name: name)
        } catch let refusal as DeviceError where refusal == .wrongCode || refusal == .expiredCode {
            limits.withLock { $0.noteFailure(from: address, at: moment) }
            throw refusal
        }
    }
}
