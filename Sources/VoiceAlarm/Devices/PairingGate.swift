import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// The one way a browser pairs: the code checked against the library, and wrong codes counted
/// per client address (`PairingLimits`) for as long as the server runs. Shared by every request
/// of a server, from any thread.
///
/// A right code always pairs, whoever else is guessing: the limits answer only wrong codes
/// (429 instead of 403), so nobody can keep the owner from pairing by guessing from the same
/// address or from many. Guessing stays bounded by the code itself: 50 bits (ten letters of 32)
/// that live ten minutes, so even at the server's full rate of answers the chance that any guess
/// lands in a code's life is far below one in a million (docs/api.md gives the figure).
package final class PairingGate: Sendable {
    private let limits = Locked(PairingLimits())
    private let now: @Sendable () -> Date

    package init(now: @escaping @Sendable () -> Date) { self.now = now }

    /// Pairs a browser from `address` with `code`. A wrong or expired code counts against the
    /// address (and everyone), and is answered `tooManyAttempts` once they have guessed too often;
    /// a right one pairs whatever the counts.
    package func pair(
        code: String, name: String, publicKey: String? = nil, from address: String,
        registry: DeviceRegistry
    ) throws -> (device: PairedDevice, token: String) {
        let moment = now()
        do {
            return try registry.pair(code: code, name: name, publicKey: publicKey)
        } catch let refusal as DeviceError where refusal == .wrongCode || refusal == .expiredCode {
            let wait: Int? = limits.withLock { limits in
                if let wait = limits.closedFor(address, at: moment) { return wait }
                limits.noteFailure(from: address, at: moment)
                return nil
            }
            if let wait { throw DeviceError.tooManyAttempts(retryAfterSeconds: wait) }
            throw refusal
        }
    }
}
