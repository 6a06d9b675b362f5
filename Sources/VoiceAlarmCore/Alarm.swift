import Foundation

/// One alarm: our own stable UUID, what it plays, when, whether it is on, and whether it speaks in
/// the user's voice.
public struct Alarm: Hashable, Sendable, Identifiable {
    /// The alarm's own id: stable for its life, the same in the scheduler, its voice file and its events.
    public var id: UUID
    /// What it plays: a playlist, or the manifesto.
    public var target: Target
    /// When it rings, in the library's time zone.
    public var time: AlarmTime
    /// Weekly days; empty for a one-off.
    public var days: Weekdays
    /// The date of a one-off; nil for a weekly alarm.
    package var date: LocalDate?
    /// A name the person gave it, if any.
    public var label: String?
    /// "Wake up to my voice": off means the default tone and no voice file.
    public var voice: Bool
    /// Minutes a `voicealarm snooze` puts the ring off (`Snooze.minutes`); nil for no snooze, the
    /// default, as in the app the rules come from.
    package var snoozeMinutes: Int?
    /// On or off: an off alarm keeps everything (its id, settings and voice file) and is scheduled
    /// nowhere. A switch apart from `voice`. An off alarm still holds its minute and counts toward
    /// the five per target, so turning it on again never collides with another.
    package var isOn: Bool
    /// Days it does not ring though its schedule says so (`alarm skip`), as kept: passed ones
    /// are dropped when read (`Skips.ahead(of:)`).
    package var skips: Skips
    /// Whether it does not ring on the holidays imported (`holidays import`).
    package var skipsHolidays: Bool

    package init(
        id: UUID = UUID(), target: Target, time: AlarmTime, days: Weekdays = [], date: LocalDate? = nil,
        label: String? = nil, voice: Bool = true, snoozeMinutes: Int? = nil, isOn: Bool = true, skips: Skips = Skips(),
        skipsHolidays: Bool = false
    ) {
        precondition(days.isEmpty != (date == nil), "an alarm is weekly or on a date, not both or neither")
        precondition(snoozeMinutes.map(Snooze.minutes.contains) ?? true, "a snooze of \(snoozeMinutes ?? 0) minutes is outside \(Snooze.minutes)")
        self.id = id
        self.target = target
        self.time = time
        self.days = days
        self.date = date
        self.label = label
        self.voice = voice
        self.snoozeMinutes = snoozeMinutes
        self.isOn = isOn
        self.skips = skips
        self.skipsHolidays = skipsHolidays
    }

    /// Every day it does not ring: its skips, and the holidays when it skips them.
    package func skipping(holidays: Set<LocalDate>) -> Skips {
        guard skipsHolidays, !holidays.isEmpty else { return skips }
        return Skips(dates: skips.dates.union(holidays), through: skips.through)
    }

    /// The id as printed everywhere: lowercase.
    package var idString: String { id.uuidString.lowercased() }

    package var schedule: AlarmSchedule {
        if let date { .once(time, date: date) } else { .weekly(time, days: days) }
    }

    /// A one-off whose time has passed has finished: it no longer counts toward the five per
    /// target nor blocks its minute.
    package func isFinished(at now: Date, in timeZone: TimeZone) -> Bool {
        schedule.nextFire(after: now, in: timeZone) == nil
    }

    /// When it rings next after `now`: the first ring of its schedule that is not skipped (nor a
    /// holiday, when it skips `holidays`); nil when it is off or has finished.
    package func nextRing(after now: Date, in timeZone: TimeZone, holidays: Set<LocalDate> = []) -> Date? {
        guard isOn else { return nil }
        let skipping = skipping(holidays: holidays)
        return skipping.isEmpty ? schedule.nextFire(after: now, in: timeZone) : skipping.nextFire(of: schedule, after: now, in: timeZone)
    }

    /// Its schedule's next ring after `now` with no day skipped; nil when it is off or has finished.
    /// A `nextRing` later than this means the coming ring is skipped.
    package func patternNext(after now: Date, in timeZone: TimeZone) -> Date? {
        isOn ? schedule.nextFire(after: now, in: timeZone) : nil
    }

    /// Whether a scheduler should hold it now: on, and not finished.
    package func isScheduled(at now: Date, in timeZone: TimeZone) -> Bool { nextRing(after: now, in: timeZone) != nil }

    /// Whether both ring at the same hour:minute on a shared day.
    package func overlaps(_ other: Alarm) -> Bool {
        guard time == other.time else { return false }
        switch (date, other.date) {
        case (let a?, let b?): return a == b
        case (let a?, nil): return other.days.contains(a.weekday)
        case (nil, let b?): return days.contains(b.weekday)
        case (nil, nil): return !days.isDisjoint(with: other.days)
        }
    }
}
