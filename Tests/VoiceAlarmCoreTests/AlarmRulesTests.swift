import Foundation
import Testing
import VoiceAlarmCore

private let utc = TimeZone(identifier: "UTC")!
/// Sunday 2026-11-29 22:00 UTC.
private let now = Date(timeIntervalSince1970: 1_795_989_600)  // date -u -d "2026-11-29 22:00" +%s
private func date(_ text: String) -> LocalDate { LocalDate(parsing: text)! }
private func weekly(_ hour: Int, _ minute: Int, _ days: Weekdays, on target: Target = .playlist("a")) -> Alarm {
    Alarm(target: target, time: AlarmTime(hour: hour, minute: minute), days: days)
}
private func once(_ hour: Int, _ minute: Int, _ day: String, on target: Target = .playlist("a")) -> Alarm {
    Alarm(target: target, time: AlarmTime(hour: hour, minute: minute), date: date(day))
}

@Suite("Alarm rules: overlap, five per target, dates in the past")
struct AlarmRulesTests {
    @Test("Now is the Sunday the tests assume")
    func clockFixture() {
        #expect(LocalDate(now, in: utc) == date("2026-11-29"))
        #expect(date("2026-11-29").weekday == .sunday)
        #expect(date("2026-11-30").weekday == .monday)
    }

    @Test(
        "Overlap needs the same hour:minute and a shared day",
        arguments: [
            // weekly vs weekly
            (weekly(7, 0, [.monday, .wednesday]), weekly(7, 0, [.wednesday], on: .playlist("b")), true),
            (weekly(7, 0, [.monday]), weekly(7, 0, [.tuesday]), false),
            (weekly(7, 0, .everyDay), weekly(7, 1, .everyDay), false),
            // weekly vs dated: the date's weekday (2026-12-02 is a Wednesday)
            (weekly(7, 0, [.wednesday]), once(7, 0, "2026-12-02", on: .manifesto), true),
            (weekly(7, 0, [.thursday]), once(7, 0, "2026-12-02"), false),
            (once(7, 0, "2026-12-02"), weekly(7, 0, [.wednesday, .friday], on: .playlist("b")), true),
            // dated vs dated
            (once(7, 0, "2026-12-02"), once(7, 0, "2026-12-02", on: .playlist("b")), true),
            (once(7, 0, "2026-12-02"), once(7, 0, "2026-12-09"), false),
            (once(7, 0, "2026-12-02"), once(8, 0, "2026-12-02"), false),
        ])
    func overlapTable(_ a: Alarm, _ b: Alarm, _ overlaps: Bool) {
        #expect(a.overlaps(b) == overlaps)
        #expect(b.overlaps(a) == overlaps)
        let violation = AlarmRules.violation(adding: b, to: [a], now: now, timeZone: utc)
        #expect((violation != nil) == overlaps)
    }

    @Test("A sixth alarm on one target is refused; other targets are not counted")
    func fivePerTarget() {
        let five = (0..<5).map { weekly(6, $0 * 10, .everyDay) }
        let others = (0..<3).map { weekly(9, $0, .everyDay, on: .playlist("b")) }
        #expect(
            AlarmRules.violation(adding: weekly(8, 0, .everyDay), to: five + others, now: now, timeZone: utc)
                == .tooMany(target: .playlist("a"), count: 5))
        #expect(AlarmRules.violation(adding: weekly(8, 0, .everyDay, on: .playlist("b")), to: five + others, now: now, timeZone: utc) == nil)
    }

    @Test("A finished one-off neither counts toward five nor blocks its minute")
    func finishedOneOffs() {
        let past = once(7, 0, "2026-11-28")
        let four = (0..<4).map { weekly(6, $0 * 10, .everyDay) }
        #expect(past.isFinished(at: now, in: utc))
        #expect(AlarmRules.violation(adding: weekly(7, 0, [.saturday]), to: four + [past], now: now, timeZone: utc) == nil)
    }

    @Test("A date that has passed is refused")
    func pastDate() {
        #expect(
            AlarmRules.violation(adding: once(7, 0, "2026-11-29"), to: [], now: now, timeZone: utc)
                == .inThePast(date("2026-11-29"), AlarmTime(hour: 7, minute: 0)))
        #expect(AlarmRules.violation(adding: once(23, 0, "2026-11-29"), to: [], now: now, timeZone: utc) == nil)
    }

    @Test("Without a date, a one-off takes the date of the next occurrence")
    func nextOccurrence() {
        #expect(AlarmRules.nextOccurrenceDate(of: AlarmTime(hour: 23, minute: 0), after: now, in: utc) == date("2026-11-29"))
        #expect(AlarmRules.nextOccurrenceDate(of: AlarmTime(hour: 7, minute: 0), after: now, in: utc) == date("2026-11-30"))
    }
}

@Suite("Parsing times, days and dates")
struct AlarmInputTests {
    @Test(
        "Times",
        arguments: [
            ("07:00", true), ("7:00", true), ("23:59", true), ("00:00", true),
            ("25:61", false), ("7", false), ("24:00", false), ("7:5", false), ("07:60", false), ("a7:00", false), ("", false),
        ])
    func times(_ text: String, _ valid: Bool) {
        #expect((AlarmTime(parsing: text) != nil) == valid)
    }

    @Test("Days")
    func days() throws {
        #expect(try Weekdays.parse("mon,wed,fri").get() == [.monday, .wednesday, .friday])
        #expect(try Weekdays.parse("Monday,SUN").get() == [.monday, .sunday])
        #expect(throws: WeekdayParseError.self) { try Weekdays.parse("mon,funday").get() }
        #expect(throws: WeekdayParseError.self) { try Weekdays.parse("").get() }
        #expect(Weekdays([.sunday, .monday]).list == "mon,sun")
    }

    @Test(
        "Dates",
        arguments: [
            ("2027-02-28", true), ("2028-02-29", true), ("2027-02-29", false), ("2027-13-01", false),
            ("27-01-01", false), ("2027-1-1", false), ("tomorrow", false),
        ])
    func dates(_ text: String, _ valid: Bool) {
        #expect((LocalDate(parsing: text) != nil) == valid)
    }
}

@Suite("Next ring time, with an injected now and time zone")
struct NextFireTests {
    private func instant(_ text: String, _ zone: String) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)!
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.date(from: text)!
    }

    @Test("Weekly alarms ring on their next day")
    func weeklyNext() {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let schedule = AlarmSchedule.weekly(AlarmTime(hour: 7, minute: 0), days: [.monday, .friday])
        // Wednesday 2027-03-03 12:00 → Friday 07:00.
        #expect(schedule.nextFire(after: instant("2027-03-03 12:00", "Europe/Berlin"), in: berlin) == instant("2027-03-05 07:00", "Europe/Berlin"))
        // Exactly at the ring time → the next one, not this one.
        #expect(schedule.nextFire(after: instant("2027-03-05 07:00", "Europe/Berlin"), in: berlin) == instant("2027-03-08 07:00", "Europe/Berlin"))
    }

    @Test("A time skipped by spring-forward rings at the first valid minute after it")
    func springForward() {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let schedule = AlarmSchedule.weekly(AlarmTime(hour: 2, minute: 30), days: .everyDay)
        let fire = schedule.nextFire(after: instant("2027-03-27 12:00", "Europe/Berlin"), in: berlin)!
        // 2027-03-28 02:30 does not exist in Berlin: 03:00 CEST = 01:00 UTC.
        #expect(fire == Date(timeIntervalSince1970: 1_806_195_600))
        #expect(schedule.nextFire(after: fire, in: berlin) == instant("2027-03-29 02:30", "Europe/Berlin"))
    }

    @Test("A time repeated by fall-back rings at its first occurrence")
    func fallBack() {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let schedule = AlarmSchedule.weekly(AlarmTime(hour: 2, minute: 30), days: .everyDay)
        let fire = schedule.nextFire(after: instant("2027-10-30 12:00", "Europe/Berlin"), in: berlin)!
        // 2027-10-31 02:30 happens twice; the first is 02:30 CEST = 00:30 UTC.
        #expect(fire == Date(timeIntervalSince1970: 1_824_942_600))
    }

    @Test("A one-off rings once; a fixed instant ignores the time zone")
    func onceAndFixed() {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        let once = AlarmSchedule.once(AlarmTime(hour: 6, minute: 0), date: LocalDate(parsing: "2027-01-02")!)
        let fire = once.nextFire(after: instant("2027-01-01 12:00", "Asia/Tokyo"), in: tokyo)
        #expect(fire == instant("2027-01-02 06:00", "Asia/Tokyo"))
        #expect(once.nextFire(after: fire!, in: tokyo) == nil)
        let fixed = AlarmSchedule.fixed(fire!)
        #expect(fixed.nextFire(after: instant("2027-01-01 12:00", "Asia/Tokyo"), in: TimeZone(identifier: "America/New_York")!) == fire)
    }
}
