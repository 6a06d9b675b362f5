import Foundation

/// Wall-clock time for the daemon, injected so its logic is tested without sleeping.
package protocol WallClock: Sendable {
    /// The wall-clock time now.
    func now() -> Date
    /// Returns at `deadline` or earlier; the caller re-reads `now()` afterwards, because
    /// monotonic time stops during suspend and the wall clock may have been changed.
    func sleep(until deadline: Date) async throws
    /// Like `sleep(until:)`, knowing that `alarm` (when set) is when an alarm is due: a clock
    /// that can wake a suspended machine arms that wake-up for the alarm alone, never for the
    /// daemon's routine re-reads, so the machine may stay asleep until the alarm.
    func sleep(until deadline: Date, alarmAt alarm: Date?) async throws
}

extension WallClock {
    package func sleep(until deadline: Date, alarmAt alarm: Date?) async throws { try await sleep(until: deadline) }
}

/// The system clock. Sleeps in slices of at most `slice` seconds, so that after a suspend or a
/// clock change the daemon looks at the wall clock again within that long.
///
/// A slice is a timed wait on a semaphore (a kernel futex timeout) in one thread shared by every
/// sleep of the process (`SliceSleeper`), not `Task.sleep`: Dispatch's timers stall when the
/// wall clock is manipulated (checked under libfaketime), and an alarm daemon must not depend
/// on them. Cancellation wakes it at once.
package struct SystemWallClock: WallClock {
    package var slice: TimeInterval

    package init(slice: TimeInterval = 5) { self.slice = slice }

    package func now() -> Date { Date() }

    package func sleep(until deadline: Date) async throws {
        await SliceSleeper.shared.sleep(for: min(max(0, deadline.timeIntervalSinceNow), slice))
        try Task.checkCancellation()
    }
}
