import Foundation

/// Opt-in snooze: "five more minutes", at most a few times per ring. The app the rules come
/// from has no snooze (it suggests a backup alarm instead), so it is off unless an alarm is
/// added with `--snooze MINUTES`.
///
/// A snoozed ring is scheduled like any alarm, under its own id: the alarm's id with every bit
/// flipped (`scheduleID(for:)`). Alarm ids are version-4 UUIDs and a flipped one never is, so
/// the two can never collide, and either gives the other without a lookup.
package enum Snooze {
    /// How long a snooze may be, in minutes.
    package static let minutes = 1...30
    /// How many times one ring may be snoozed in a row; then it rings until stopped.
    package static let maximumRepeats = 3

    /// The id a snoozed ring of `alarm` is scheduled under (and the alarm's id, given that one).
    package static func scheduleID(for alarm: UUID) -> UUID {
        var bytes = alarm.uuid
        withUnsafeMutableBytes(of: &bytes) { raw in for i in raw.indices { raw[i] = ~raw[i] } }
        return UUID(uuid: bytes)
    }

    /// Whether `id` is a snoozed ring's id rather than an alarm's (its version nibble is not 4).
    package static func isScheduleID(_ id: UUID) -> Bool { (id.uuid.6 >> 4) == 0xB }

    /// When a snooze taken at `now` rings: `minutes` later, at the start of the next whole minute
    /// (as alarms ring), and a minute later still for every minute already held by another ring
    /// (`taken`), so two rings never share a minute (Stop would look broken) — the rule alarms follow.
    package static func ringTime(after now: Date, minutes: Int, taken: [Date]) -> Date {
        precondition(Snooze.minutes.contains(minutes), "a snooze of \(minutes) minutes")
        let held = Set(taken.map(minute))
        var candidate = Date(timeIntervalSince1970: ((now.timeIntervalSince1970 + Double(minutes * 60)) / 60).rounded(.up) * 60)
        while held.contains(minute(candidate)) { candidate += 60 }
        return candidate
    }

    /// The minute an instant falls in; an instant no minute count holds (a damaged record) is the
    /// last representable one, never a trap.
    private static func minute(_ date: Date) -> Int {
        Int(exactly: (date.timeIntervalSince1970 / 60).rounded(.down)) ?? (date.timeIntervalSince1970 < 0 ? .min : .max)
    }
}

/// A snoozed ring waiting to ring again.
package struct PendingSnooze: Hashable, Sendable {
    package var alarm: UUID
    package var ringAt: Date
    /// How many snoozes in a row this is (1 for the first).
    package var count: Int

    package init(alarm: UUID, ringAt: Date, count: Int) {
        self.alarm = alarm
        self.ringAt = ringAt
        self.count = count
    }

    package var scheduleID: UUID { Snooze.scheduleID(for: alarm) }
}
