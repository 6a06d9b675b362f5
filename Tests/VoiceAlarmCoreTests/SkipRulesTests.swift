import Foundation
import Testing

@testable import VoiceAlarmCore

/// Skips: which rings they leave out, and what `alarm skip` / `unskip` make of them or refuse.
@Suite("Skipped days and pauses")
struct SkipRulesTests {
    static let zone = TimeZone(identifier: "Europe/Berlin")!
    /// Monday 7 December 2026, 20:00 in Berlin.
    static let now = ISO8601DateFormatter().date(from: "2026-12-07T19:00:00Z")!
    static let weekdays = Alarm(target: .playlist("morning"), time: AlarmTime(hour: 6, minute: 45), days: .workDays)
    static func day(_ text: String) -> LocalDate { LocalDate(parsing: text)! }
    static func next(_ alarm: Alarm, after: Date = now) -> String? {
        alarm.nextRing(after: after, in: zone).map { String(LocalTimeText.iso($0, zone).prefix(16)) }
    }

    @Test("Skip next, a day, a pause: the next ring moves past them; the daemon's window says which rings were skipped")
    func nextRings() throws {
        var alarm = Self.weekdays
        #expect(Self.next(alarm) == "2026-12-08T06:45")
        alarm.skips = try SkipRules.skip(.next, of: alarm, now: Self.now, in: Self.zone)
        #expect(alarm.skips.dates == [Self.day("2026-12-08")] && Self.next(alarm) == "2026-12-09T06:45")
        alarm.skips = try SkipRules.skip(.dates([Self.day("2026-12-09")]), of: alarm, now: Self.now, in: Self.zone)
        #expect(Self.next(alarm) == "2026-12-10T06:45")
        alarm.skips = try SkipRules.skip(.until(Self.day("2026-12-18")), of: alarm, now: Self.now, in: Self.zone)
        #expect(alarm.skips.dates.isEmpty && Self.next(alarm) == "2026-12-21T06:45", "the pause holds the days in it")
        let window = alarm.skips.fires(of: alarm.schedule, after: Self.now, through: Self.now.addingTimeInterval(14 * 86_400), in: Self.zone)
        #expect(window.filter(\.skipped).count == 9 && window.filter { !$0.skipped }.count == 1, "two weeks: 9 skipped, Monday 21 rings")
        // A year-long pause is jumped over, not walked.
        alarm.skips = Skips(through: Self.day("2027-12-06"))
        #expect(Self.next(alarm) == "2027-12-07T06:45")
    }

    @Test(
        "Refused: a one-off, an off alarm, a day passed, a day it does not ring, a day more than a year ahead",
        arguments: [
            ("once", SkipRules.Skip.next, "rings once"), ("off", .next, "is off"),
            ("weekly", .dates([LocalDate(parsing: "2026-12-06")!]), "has passed"),
            ("weekly", .dates([LocalDate(parsing: "2026-12-07")!]), "has passed"),  // today's 06:45 has rung
            ("weekly", .dates([LocalDate(parsing: "2026-12-12")!]), "does not ring on 2026-12-12"),
            ("weekly", .dates([LocalDate(parsing: "2027-12-09")!]), "more than a year ahead"),
            ("weekly", .until(LocalDate(parsing: "2026-12-01")!), "has passed"),
        ] as [(String, SkipRules.Skip, String)])
    func refused(kind: String, skip: SkipRules.Skip, words: String) {
        var alarm = Self.weekdays
        if kind == "once" { alarm = Alarm(target: .manifesto, time: AlarmTime(hour: 7, minute: 0), date: Self.day("2026-12-08")) }
        if kind == "off" { alarm.isOn = false }
        #expect(throws: SkipRules.Refusal.self) { try SkipRules.skip(skip, of: alarm, now: Self.now, in: Self.zone) }
        do {
            _ = try SkipRules.skip(skip, of: alarm, now: Self.now, in: Self.zone)
        } catch {
            #expect("\(error)".contains(words), "\(error)")
        }
    }

    @Test("Unskip: the pause first (Resume), else the earliest day (Undo); a day; a day inside the pause resumes from it; all")
    func unskip() throws {
        var alarm = Self.weekdays
        alarm.skips = Skips(dates: [Self.day("2026-12-22"), Self.day("2026-12-23")], through: Self.day("2026-12-11"))
        let resumed = try SkipRules.unskip(.next, of: alarm, now: Self.now, in: Self.zone)
        #expect(resumed.through == nil && resumed.dates.count == 2)
        alarm.skips = resumed
        #expect(try SkipRules.unskip(.next, of: alarm, now: Self.now, in: Self.zone).dates == [Self.day("2026-12-23")])
        #expect(try SkipRules.unskip(.date(Self.day("2026-12-23")), of: alarm, now: Self.now, in: Self.zone).dates == [Self.day("2026-12-22")])
        alarm.skips = Skips(through: Self.day("2026-12-18"))
        #expect(try SkipRules.unskip(.date(Self.day("2026-12-10")), of: alarm, now: Self.now, in: Self.zone).through == Self.day("2026-12-09"))
        #expect(try SkipRules.unskip(.all, of: alarm, now: Self.now, in: Self.zone).isEmpty)
        #expect(throws: SkipRules.Refusal.notSkipped(Self.day("2027-01-05"))) {
            try SkipRules.unskip(.date(Self.day("2027-01-05")), of: alarm, now: Self.now, in: Self.zone)
        }
        alarm.skips = Skips(dates: [Self.day("2026-12-01")])  // passed: forgotten
        #expect(throws: SkipRules.Refusal.nothingSkipped) { try SkipRules.unskip(.next, of: alarm, now: Self.now, in: Self.zone) }
    }

    @Test("systemd: rings before the last skip are dated one by one (the skipped one left out), then the pattern from the day after it")
    func systemdExpressions() {
        let skips = Skips(dates: [Self.day("2026-12-09")], through: nil)
        let configuration = AlarmConfiguration(schedule: Self.weekdays.schedule, sound: .default, skips: skips)
        let expressions = SystemdCalendar.expressions(for: configuration, in: Self.zone, now: Self.now)
        let week = "Mon,Tue,Wed,Thu,Fri"
        #expect(expressions == ["2026-12-08 06:45:00", "\(week) 2026-12-10..31 06:45:00", "\(week) 2027..2199-*-* 06:45:00"], "\(expressions)")
        #expect(!expressions.contains { $0.hasPrefix("2026-12-09") })
        let plain = AlarmConfiguration(schedule: Self.weekdays.schedule, sound: .default)
        #expect(SystemdCalendar.expressions(for: plain, in: Self.zone, now: Self.now).first == "Mon,Tue,Wed,Thu,Fri *-*-* 06:45:00")
    }

    @Test("A configuration kept before skips existed reads with none, and one without skips encodes as before")
    func codable() throws {
        let old = #"{"schedule":{"weekly":{"_0":{"hour":6,"minute":45},"days":31}},"sound":{"default":{}}}"#
        let decoded = try JSONDecoder().decode(AlarmConfiguration.self, from: Data(old.utf8))
        #expect(decoded.skips.isEmpty)
        #expect(!String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self).contains("skips"))
        var skipped = decoded
        skipped.skips = Skips(dates: [Self.day("2026-12-09")])
        #expect(try JSONDecoder().decode(AlarmConfiguration.self, from: try JSONEncoder().encode(skipped)) == skipped)
    }
}
