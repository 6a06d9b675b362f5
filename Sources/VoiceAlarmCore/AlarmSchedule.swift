import Foundation

/// When an alarm rings, shaped like AlarmKit's `Alarm.Schedule`: a fixed instant, or a
/// wall-clock time that follows the local time zone (7:00 stays 7:00 after flying east),
/// repeating on weekdays or once on a date.
package enum AlarmSchedule: Hashable, Sendable, Codable {
    /// An absolute instant, whatever the time zone.
    case fixed(Date)
    /// A local time of day, weekly on `days`.
    case weekly(AlarmTime, days: Weekdays)
    /// A local time of day, once, on `date`.
    case once(AlarmTime, date: LocalDate)

    /// The next time this schedule rings strictly after `instant`, in `timeZone`, or nil when it
    /// never will again.
    ///
    /// A local time that a DST change skips rings at the first valid minute after it (a wake-up
    /// alarm must not silently skip a day); in a repeated hour, the first occurrence rings, as
    /// systemd does.
    package func nextFire(after instant: Date, in timeZone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        switch self {
        case .fixed(let date):
            return date > instant ? date : nil
        case .once(let time, let date):
            let fire = Self.resolve(time, on: date, calendar: calendar)
            return fire > instant ? fire : nil
        case .weekly(let time, let days):
            guard !days.isEmpty else { return nil }  // no day: never (only an edited schedule has none)
            // Walk day by day (at most 8 days ahead); each day's time resolved through DST.
            var day = LocalDate(instant, in: timeZone)
            for _ in 0...8 {
                if days.contains(day.weekday) {
                    let fire = Self.resolve(time, on: day, calendar: calendar)
                    if fire > instant { return fire }
                }
                day = Self.nextDay(after: day, calendar: calendar)
            }
            preconditionFailure("a weekly schedule with days \(days.list) found no day in 8")
        }
    }

    /// The first ring within a year after `instant` whose local time a daylight-saving change
    /// skips, and the instant it rings instead (the first valid minute after it); nil when
    /// every ring in that year falls on a time that exists. What `alarm add` warns about.
    package func firstSkippedRing(after instant: Date, in timeZone: TimeZone) -> (date: LocalDate, ringsAt: Date)? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        func skipped(_ time: AlarmTime, _ day: LocalDate) -> Date? {
            let fire = Self.resolve(time, on: day, calendar: calendar)
            let local = calendar.dateComponents([.hour, .minute], from: fire)
            return (local.hour, local.minute) == (time.hour, time.minute) ? nil : fire
        }
        switch self {
        case .fixed:
            return nil
        case .once(let time, let date):
            guard Self.resolve(time, on: date, calendar: calendar) > instant, let fire = skipped(time, date) else { return nil }
            return (date, fire)
        case .weekly(let time, let days):
            var day = LocalDate(instant, in: timeZone)
            for _ in 0...366 {
                if days.contains(day.weekday), Self.resolve(time, on: day, calendar: calendar) > instant, let fire = skipped(time, day) {
                    return (day, fire)
                }
                day = Self.nextDay(after: day, calendar: calendar)
            }
            return nil
        }
    }

    /// The instant `time` on `date` means locally: a skipped time moves to the first valid
    /// minute after it; a repeated time takes its first occurrence.
    static func resolve(_ time: AlarmTime, on date: LocalDate, calendar: Calendar) -> Date {
        let midnight = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day))!
        let components = DateComponents(hour: time.hour, minute: time.minute, second: 0)
        let start = midnight.addingTimeInterval(-1)
        let match = calendar.nextDate(
            after: start, matching: components, matchingPolicy: .nextTime,
            repeatedTimePolicy: .first, direction: .forward)!
        return match
    }

    static func nextDay(after date: LocalDate, calendar: Calendar) -> LocalDate {
        let noon = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day, hour: 12))!
        return LocalDate(calendar.date(byAdding: .day, value: 1, to: noon)!, in: calendar.timeZone)
    }
}
