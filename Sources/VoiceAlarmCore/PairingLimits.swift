import Foundation

/// Wrong pairing codes counted per client address, and over all of them: one device guessing
/// closes pairing for itself alone (five a minute), and many together for everyone (thirty a
/// minute). Waiting codes are never voided: at five guesses a minute a code of 40 bits is out of
/// reach, and voiding would let anyone on the network keep the owner from pairing.
package struct PairingLimits: Sendable {
    private var perAddress: [String: PairingAttempts] = [:]
    private var overall: PairingAttempts
    private let allowedPerAddress: Int
    private let window: TimeInterval

    package init(perAddress: Int = 5, overall: Int = 30, window: TimeInterval = 60) {
        allowedPerAddress = perAddress
        self.window = window
        self.overall = PairingAttempts(allowed: overall, window: window)
    }

    /// Seconds until `address` may try again, or nil when it may now.
    package func closedFor(_ address: String, at now: Date) -> Int? {
        [perAddress[address]?.closedFor(at: now), overall.closedFor(at: now)].compactMap { $0 }.max()
    }

    /// Notes a wrong code from `address`.
    package mutating func noteFailure(from address: String, at now: Date) {
        overall.noteFailure(at: now)
        var attempts = perAddress[address] ?? PairingAttempts(allowed: allowedPerAddress, window: window)
        attempts.noteFailure(at: now)
        perAddress[address] = attempts
        // Addresses that have not guessed for a window are forgotten: the table stays small.
        if perAddress.count > 256 { perAddress = perAddress.filter { $0.value.closedFor(at: now) != nil } }
    }
}
