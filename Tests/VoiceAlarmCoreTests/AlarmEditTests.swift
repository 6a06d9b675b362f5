import Foundation
import Testing

@testable import VoiceAlarmCore

/// What an edit makes of an alarm: fields given change, the rest stay, and a one-off's date
/// follows the rule a person expects of a time moved without a date.
@Suite("An edit applied to an alarm")
struct AlarmEditRulesTests {
    static let zone = TimeZone(identifier: "Europe/Berlin")!
    /// Monday 7 December 2026, 20:00 in Berlin.
    static let now = ISO8601DateFormatter().date(from: "2026-12-07T19:00:00Z")!
    static let weekly = Alarm(target: .playlist("morning"), time: AlarmTime(hour: 6, minute: 45), days: .workDays, label: "Work", snoozeMinutes: 5)
    static let tomorrow = Alarm(target: .manifesto, time: AlarmTime(hour: 7, minute: 0), date: LocalDate(year: 2026, month: 12, day: 8))

    @Test("Fields given change; the id, the rest and both switches stay")
    func fields() {
        var edit = AlarmEdit()
        edit.time = AlarmTime(hour: 7, minute: 15)
        edit.label = .some(nil)
        edit.snoozeMinutes = .some(nil)
        edit.target = .manifesto
        var off = Self.weekly
        off.isOn = false
        off.voice = false
        let changed = edit.applied(to: off, now: Self.now, in: Self.zone)
        #expect(changed.id == off.id && changed.time == AlarmTime(hour: 7, minute: 15) && changed.days == .workDays)
        #expect(changed.label == nil && changed.snoozeMinutes == nil && changed.target == .manifesto)
        #expect(!changed.isOn && !changed.voice)
        #expect(AlarmEdit().isEmpty && !edit.isEmpty)
    }

    @Test(
        "A one-off's date: kept while the new time is still ahead on it, else the next occurrence; --days and --date switch kinds",
        arguments: [
            // (time, days, date given) → (date expected, days expected)
            ("06:30", nil, nil, "2026-12-08", ""),  // tomorrow 06:30 is ahead: tomorrow
            ("21:00", nil, nil, "2026-12-08", ""),  // still tomorrow (ahead)
            (nil, "sat,sun", nil, nil, "sat,sun"),  // weekly now
            (nil, nil, "2027-01-04", "2027-01-04", ""),  // another date
        ] as [(String?, String?, String?, String?, String)])
    func dates(time: String?, days: String?, date: String?, expectedDate: String?, expectedDays: String) throws {
        var edit = AlarmEdit()
        edit.time = time.flatMap(AlarmTime.init(parsing:))
        edit.days = try days.map { try Weekdays.parse($0).get() }
        edit.date = date.flatMap(LocalDate.init(parsing:))
        let changed = edit.applied(to: Self.tomorrow, now: Self.now, in: Self.zone)
        #expect(changed.date?.description == expectedDate)
        #expect(changed.days.isEmpty ? "" == expectedDays : changed.days == (try Weekdays.parse(expectedDays).get()))
    }

    @Test("A one-off moved to a time already gone on its date rings at the next occurrence of the new time")
    func movedBehind() {
        // Today's 21:00 one-off moved to 19:30: today 19:30 has passed (it is 20:00), so tomorrow.
        let tonight = Alarm(target: .manifesto, time: AlarmTime(hour: 21, minute: 0), date: LocalDate(year: 2026, month: 12, day: 7))
        var edit = AlarmEdit()
        edit.time = AlarmTime(hour: 19, minute: 30)
        #expect(edit.applied(to: tonight, now: Self.now, in: Self.zone).date == LocalDate(year: 2026, month: 12, day: 8))
        edit.time = AlarmTime(hour: 23, minute: 0)
        #expect(edit.applied(to: tonight, now: Self.now, in: Self.zone).date == LocalDate(year: 2026, month: 12, day: 7))
    }
}
