import Foundation

/// The rule that keeps pairing codes from being guessed: at most `allowed` wrong codes in a
/// `window`; past that, pairing is closed until the oldest wrong code leaves the window (and the
/// caller voids the waiting codes). A value: the server keeps one and asks it on every attempt.
package struct PairingAttempts: Sendable {
    package var allowed = 5
    package var window: TimeInterval = 60
    private var failures: [Date] = []

    package init(allowed: Int = 5, window: TimeInterval = 60) {
        precondition(allowed > 0 && window > 0, "a pairing limit allows some attempts in some time")
        self.allowed = allowed
        self.window = window
    }

    /// Seconds until pairing opens again, or nil when it is open at `now`.
    package func closedFor(at now: Date) -> Int? {
        let recent = failures.filter { now.timeIntervalSince($0) < window && $0 <= now }
        guard recent.count >= allowed, let oldest = recent.min() else { return nil }
        return max(1, Int((window - now.timeIntervalSince(oldest)).rounded(.up)))
    }

    /// Notes a wrong code; true when this one closes pairing.
    @discardableResult
    package mutating func noteFailure(at now: Date) -> Bool {
        failures = failures.filter { now.timeIntervalSince($0) < window && $0 <= now } + [now]
        return failures.count == allowed
    }
}
