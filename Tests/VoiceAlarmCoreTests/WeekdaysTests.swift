import Foundation
import Testing
import VoiceAlarmCore

private let writtenDays: [(String, Weekdays)] = [
    ("mon", .monday), ("Monday", .monday), ("mon-fri", .workDays), ("MON-FRI", .workDays),
    ("weekdays", .workDays), ("weekends", .weekend), ("Weekend", .weekend), ("daily", .everyDay),
    ("mon,wed-fri", [.monday, .wednesday, .thursday, .friday]), ("sat-sun", .weekend),
    ("wed-wed", .wednesday), ("mon, tue ,", [.monday, .tuesday]), ("weekends,mon", [.saturday, .sunday, .monday]),
    ("tuesday-thursday", [.tuesday, .wednesday, .thursday]),
]
private let compactTable: [(Weekdays, String)] = [
    (.everyDay, "daily"), (.workDays, "weekdays"), (.weekend, "weekends"),
    ([.monday, .tuesday, .wednesday, .friday], "mon-wed,fri"), ([.monday, .tuesday], "mon,tue"),
    ([.friday, .saturday, .sunday, .monday], "mon,fri-sun"),
]

@Suite("Days as people write them, and daylight-saving gaps")
struct WeekdaysTests {
    @Test("Names, ranges, groups and mixtures parse to the days meant, in any case", arguments: writtenDays)
    func parses(_ text: String, _ days: Weekdays) throws {
        #expect(try Weekdays.parse(text).get() == days)
    }

    @Test(
        "What is not a day is refused with the word and why",
        arguments: [
            ("fri-mon", "fri-mon", WeekdayParseError.Reason.backwards), ("sun-mon", "sun-mon", .backwards),
            ("mon-funday", "funday", .notADay), ("mo", "mo", .notADay), ("mon-", "mon-", .notADay),
            ("mon-tue-wed", "mon-tue-wed", .notADay), ("", "", .notADay), ("week", "week", .notADay),
        ])
    func refuses(_ text: String, _ word: String, _ reason: WeekdayParseError.Reason) {
        #expect(throws: WeekdayParseError(word: word, reason: reason)) { try Weekdays.parse(text).get() }
    }

    @Test("compact is never longer than the list (but for the word weekends), and parse reads it back to the same days", arguments: 1..<128)
    func compactRoundTrip(_ raw: Int) throws {
        let days = Weekdays(rawValue: raw)
        #expect(try Weekdays.parse(days.compact).get() == days)
        #expect(days.compact.count <= max(days.list.count, "weekends".count))
    }

    @Test("compact's forms", arguments: compactTable)
    func compactForms(_ days: Weekdays, _ text: String) {
        #expect(days.compact == text)
    }

    private static let berlin = TimeZone(identifier: "Europe/Berlin")!
    private static func instant(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test("A ring in a spring-forward gap is found, with the minute it rings instead")
    func skippedRing() throws {
        let now = Self.instant("2027-03-01T12:00:00Z")
        let once = AlarmSchedule.once(AlarmTime(hour: 2, minute: 30), date: LocalDate(year: 2027, month: 3, day: 28))
        let skipped = try #require(once.firstSkippedRing(after: now, in: Self.berlin))
        #expect(skipped.date == LocalDate(year: 2027, month: 3, day: 28))
        #expect(skipped.ringsAt == Self.instant("2027-03-28T01:00:00Z"))  // 03:00 CEST
        #expect(skipped.ringsAt == once.nextFire(after: now, in: Self.berlin))

        let sundays = AlarmSchedule.weekly(AlarmTime(hour: 2, minute: 5), days: .sunday)
        #expect(try #require(sundays.firstSkippedRing(after: now, in: Self.berlin)).date == LocalDate(year: 2027, month: 3, day: 28))
        // Other days, other times, the autumn's repeated hour and zones without DST have no gap.
        #expect(AlarmSchedule.weekly(AlarmTime(hour: 2, minute: 30), days: .workDays).firstSkippedRing(after: now, in: Self.berlin) == nil)
        #expect(AlarmSchedule.weekly(AlarmTime(hour: 3, minute: 0), days: .everyDay).firstSkippedRing(after: now, in: Self.berlin) == nil)
        #expect(sundays.firstSkippedRing(after: now, in: TimeZone(identifier: "UTC")!) == nil)
        #expect(
            AlarmSchedule.once(AlarmTime(hour: 2, minute: 30), date: LocalDate(year: 2027, month: 10, day: 31))
                .firstSkippedRing(after: now, in: Self.berlin) == nil)
        // A gap that is already past is not announced.
        #expect(once.firstSkippedRing(after: Self.instant("2027-03-29T00:00:00Z"), in: Self.berlin) == nil)
    }
}
