import Foundation

/// Wrong pairing codes counted per client address, and over all of them: past five a minute from
/// one address its wrong codes are refused as too many, past thirty a minute everyone's. Only
/// wrong codes: a right one always pairs (`PairingGate`), so guessing from the owner's own address
/// or from many cannot keep the owner out. Waiting codes are never voided, for the same reason;
/// a code of 50 bits that lives ten minutes stays out of reach of guessing at any rate the server
/// answers.
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
