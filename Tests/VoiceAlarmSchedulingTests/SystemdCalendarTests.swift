import Foundation
import TestSupport
import Testing
import VoiceAlarmCore

/// Instants systemd-analyze prints for `expressions` from `base` (local time in `zone`).
private func systemdElapses(_ expressions: [String], zone: String, base: String, iterations: Int) async throws -> [Date] {
    var environment = ProcessInfo.processInfo.environment
    environment["TZ"] = zone
    let result = try await ProcessRunner.run(
        "/usr/bin/systemd-analyze",
        ["calendar", "--iterations=\(iterations)", "--base-time=\(base)"] + expressions, environment: environment)
    guard result.status == 0 else { throw TestSupportError("systemd-analyze: \(result.stderr)") }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "EEE yyyy-MM-dd HH:mm:ss"
    var dates: [Date] = []
    for line in result.stdout.split(separator: "\n") {
        let text = line.trimmingCharacters(in: .whitespaces)
        let utcLine = text.hasPrefix("(in UTC): ")
        let localUTC = zone == "UTC" && (text.hasPrefix("Next elapse: ") || text.hasPrefix("Iter. #"))
        guard utcLine || localUTC, text.hasSuffix(" UTC") else { continue }
        let stamp = text.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces).dropLast(4)
        if let date = formatter.date(from: String(stamp)) { dates.append(date) }
    }
    return dates
}

private func local(_ text: String, _ zone: String) -> Date {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: zone)!
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return formatter.date(from: text)!
}

/// A stable seed for `text` (FNV-1a over its UTF-8 bytes): the same numbers for a zone on every
/// run and machine, so a failure reproduces (`hashValue` changes with every process).
private func seed(_ text: String) -> UInt64 {
    text.utf8.reduce(UInt64(0xCBF2_9CE4_8422_2325)) { hash, byte in (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
}

@Suite("Next ring times agree with systemd's calendar")
struct SystemdCalendarTests {
    static let zones = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "America/St_Johns", "Pacific/Chatham"]
    /// Ordinary days and the weeks of fall-back changes (repeated hours) in each hemisphere.
    static let bases = ["2027-01-13 12:00:00", "2027-10-29 12:00:00", "2027-11-05 12:00:00", "2027-04-02 12:00:00"]

    @Test("Weekly schedules in many zones, over fall-back weeks", arguments: zones)
    func weeklyAgreement(_ zone: String) async throws {
        var random = SeededGenerator(seed: seed(zone))
        let timeZone = TimeZone(identifier: zone)!
        for base in Self.bases {
            for _ in 0..<6 {
                var days = Weekdays(rawValue: Int.random(in: 1...127, using: &random))
                if days.isEmpty { days = .everyDay }
                let time = AlarmTime(hour: Int.random(in: 0...23, using: &random), minute: Int.random(in: 0...59, using: &random))
                let schedule = AlarmSchedule.weekly(time, days: days)
                let start = local(base, zone)
                var ours: [Date] = []
                var cursor = start
                for _ in 0..<12 {
                    guard let fire = schedule.nextFire(after: cursor, in: timeZone) else { break }
                    ours.append(fire)
                    cursor = fire
                }
                // Away from DST gaps: drop the days where the time did not exist (systemd skips them).
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = timeZone
                let regular = ours.filter {
                    let c = calendar.dateComponents([.hour, .minute], from: $0)
                    return c.hour == time.hour && c.minute == time.minute
                }
                let expression = SystemdCalendar.expressions(for: schedule, in: timeZone, now: start)[0]
                let theirs = try await systemdElapses([expression], zone: zone, base: base, iterations: regular.count)
                #expect(theirs == regular, "\(zone) from \(base): '\(expression)'")
            }
        }
    }

    @Test("The repeated hour of a fall-back rings once, at its first occurrence, as systemd does")
    func fallBackFirstOccurrence() async throws {
        let schedule = AlarmSchedule.weekly(AlarmTime(hour: 1, minute: 30), days: .everyDay)
        let base = "2027-11-06 12:00:00"
        let ours = schedule.nextFire(after: local(base, "America/New_York"), in: TimeZone(identifier: "America/New_York")!)
        let theirs = try await systemdElapses(["*-*-* 01:30:00"], zone: "America/New_York", base: base, iterations: 1)
        #expect([ours!] == theirs)
        #expect(ours == Date(timeIntervalSince1970: 1825565400))  // date -u -d '2027-11-07 05:30' +%s: 01:30 EDT, the first
    }

    @Test(
        "On a spring-forward day the extra OnCalendar= makes systemd ring at the first valid minute",
        arguments: [
            ("Europe/Berlin", "2027-03-27 12:00:00", 2, 30), ("America/New_York", "2027-03-13 12:00:00", 2, 15),
            ("Australia/Sydney", "2027-10-02 12:00:00", 2, 0),
        ])
    func gapDay(_ zone: String, _ base: String, _ hour: Int, _ minute: Int) async throws {
        let timeZone = TimeZone(identifier: zone)!
        let schedule = AlarmSchedule.weekly(AlarmTime(hour: hour, minute: minute), days: .everyDay)
        let start = local(base, zone)
        let expressions = SystemdCalendar.expressions(for: schedule, in: timeZone, now: start)
        #expect(expressions.count == 2, "\(expressions)")
        var ours: [Date] = []
        var cursor = start
        for _ in 0..<4 { ours.append(schedule.nextFire(after: cursor, in: timeZone)!); cursor = ours.last! }
        let theirs = await Array(Set(try systemdElapses(expressions, zone: zone, base: base, iterations: 4))).sorted().prefix(4)
        #expect(Array(theirs) == ours, "\(expressions)")
        // Without the extra expression systemd would skip the gap day entirely.
        let plain = try await systemdElapses([expressions[0]], zone: zone, base: base, iterations: 1)
        #expect(plain.first! > ours[0].addingTimeInterval(3600))
    }

    @Test("A one-off on a gap day and a fixed instant are dated expressions systemd reads the same way")
    func onceAndFixed() async throws {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let once = AlarmSchedule.once(AlarmTime(hour: 2, minute: 30), date: LocalDate(parsing: "2027-03-28")!)
        let start = local("2027-03-20 12:00:00", "Europe/Berlin")
        let expressions = SystemdCalendar.expressions(for: once, in: berlin, now: start)
        #expect(expressions == ["2027-03-28 03:00:00"])
        #expect(
            try await systemdElapses(expressions, zone: "Europe/Berlin", base: "2027-03-20 12:00:00", iterations: 1)
                == [once.nextFire(after: start, in: berlin)!])
        let fixed = AlarmSchedule.fixed(Date(timeIntervalSince1970: 1_830_000_000))
        let fixedExpressions = SystemdCalendar.expressions(for: fixed, in: berlin, now: start)
        #expect(
            try await systemdElapses(fixedExpressions, zone: "Asia/Tokyo", base: "2027-03-20 12:00:00", iterations: 1)
                == [Date(timeIntervalSince1970: 1_830_000_000)])
    }
}
