import Foundation

/// What `alarm edit` changes; a field left nil stays as it is. Applied, it makes the new alarm
/// under the same id, which the rules then check against the others as `alarm add` checks a new one.
///
/// ```swift
/// var edit = AlarmEdit()
/// edit.time = AlarmTime(hour: 7, minute: 15)
/// let changed = edit.applied(to: alarm, now: now, in: zone)   // same id, 07:15
/// ```
package struct AlarmEdit: Equatable, Sendable {
    /// A new time.
    package var time: AlarmTime?
    /// Weekly on these days from now on (a one-off becomes weekly).
    package var days: Weekdays?
    /// Once, on this date (a weekly alarm becomes a one-off).
    package var date: LocalDate?
    /// A new label; `.some(nil)` takes the label away.
    package var label: String??
    /// A new snooze in minutes; `.some(nil)` takes the snooze away.
    package var snoozeMinutes: Int??
    /// What it plays from now on.
    package var target: Target?
    /// Whether it skips the holidays imported, from now on.
    package var skipsHolidays: Bool?

    package init() {}

    /// Whether nothing would change.
    package var isEmpty: Bool { self == AlarmEdit() }

    /// The alarm with these changes, under its own id; its on/off and voice switches stay.
    ///
    /// A one-off whose time changes without a new date keeps its date while the new time on it is
    /// still ahead, and otherwise rings at the next occurrence of the new time, as an alarm added
    /// without `--date` would: a person moving tomorrow's 07:00 to 06:30 means tomorrow, and one
    /// moving today's 23:00 to 06:00 means the coming morning.
    package func applied(to alarm: Alarm, now: Date, in timeZone: TimeZone) -> Alarm {
        precondition(days == nil || date == nil, "an edit makes an alarm weekly or once, not both")
        precondition(days.map { !$0.isEmpty } ?? true, "weekly needs a day")
        let time = self.time ?? alarm.time
        var weekly = alarm.days, once = alarm.date
        if let days {
            (weekly, once) = (days, nil)
        } else if let date {
            (weekly, once) = ([], date)
        } else if let day = alarm.date, self.time != nil {
            let kept = AlarmSchedule.once(time, date: day).nextFire(after: now, in: timeZone) != nil
            once = kept ? day : AlarmRules.nextOccurrenceDate(of: time, after: now, in: timeZone)
        }
        return Alarm(
            id: alarm.id, target: target ?? alarm.target, time: time, days: weekly, date: once, label: label ?? alarm.label,
            voice: alarm.voice, snoozeMinutes: snoozeMinutes ?? alarm.snoozeMinutes, isOn: alarm.isOn, skips: alarm.skips,
            skipsHolidays: skipsHolidays ?? alarm.skipsHolidays)
    }
}
