import Foundation
import TestSupport
import Testing

/// Holidays from iCalendar files (libical) through the binary: the days a real calendar gives
/// (a yearly rule, a one-off, a multi-day event, exceptions, a rule that never ends), alarms
/// that skip them with each scheduler backend, and files refused with nothing changed.
@Suite("Holidays from iCalendar files")
struct HolidayTests {
    static func json(_ text: String) throws -> [[String: Any]] { try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] ?? [] }

    static func calendar(_ events: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Example//Holidays//EN\r\n" + events + "END:VCALENDAR\r\n"
    }

    /// A public-holiday calendar as published: a yearly rule, a one-off, a three-day event, a
    /// weekly rule with a count and an exception.
    static let published = calendar(
        """
        BEGIN:VEVENT\r
        UID:xmas@example\r
        DTSTART;VALUE=DATE:20201225\r
        DTEND;VALUE=DATE:20201226\r
        RRULE:FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=25\r
        SUMMARY:Christmas Day\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:bridge@example\r
        DTSTART;VALUE=DATE:20270514\r
        SUMMARY:Bridge day\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:summer@example\r
        DTSTART;VALUE=DATE:20270802\r
        DTEND;VALUE=DATE:20270805\r
        SUMMARY:Summer break\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:fridays@example\r
        DTSTART;VALUE=DATE:20270101\r
        RRULE:FREQ=WEEKLY;COUNT=3\r
        EXDATE;VALUE=DATE:20270108\r
        SUMMARY:Short Fridays\r
        END:VEVENT\r

        """)

    @Test("A published calendar: the yearly rule over the years asked, the one-off, each day of a three-day event, a count and its exception")
    func published() async throws {
        let lib = CLILibrary()
        let file = lib.dir.file("holidays-test.ics")
        try Self.published.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try await lib.run(["holidays", "import", file, "--years", "2026-2027"])
        #expect(imported.status == 0 && imported.stdout == "holidays-test\n", "\(imported.stderr)")
        #expect(imported.stderr.contains("Imported 'holidays-test': 8 holidays in 2026–2027"), "\(imported.stderr)")
        let listed = try Self.json(try await lib.ok(["holidays", "list", "--json"]))
        let days = listed.compactMap { $0["date"] as? String }
        #expect(
            days == ["2026-12-25", "2027-01-01", "2027-01-15", "2027-05-14", "2027-08-02", "2027-08-03", "2027-08-04", "2027-12-25"],
            "\(days)")
        #expect(listed.first?["name"] as? String == "Christmas Day" && listed.first?["calendar"] as? String == "holidays-test")
        #expect(try Self.json(try await lib.ok(["holidays", "list", "--year", "2026", "--json"])).count == 1)
        // Imported again under the same name: replaced whole, not doubled.
        let again = try await lib.run(["holidays", "import", file, "--years", "2027"])
        #expect(again.stderr.contains("Replaced 'holidays-test': 7 holidays in 2027"), "\(again.stderr)")
        #expect(try Self.json(try await lib.ok(["holidays", "list", "--json"])).count == 7)
        // A rule that never ends gives the years asked, and no more.
        let daily = lib.dir.file("daily.ics")
        try Self.calendar("BEGIN:VEVENT\r\nUID:d@x\r\nDTSTART;VALUE=DATE:20000101\r\nRRULE:FREQ=DAILY\r\nSUMMARY:Every day\r\nEND:VEVENT\r\n")
            .write(toFile: daily, atomically: true, encoding: .utf8)
        let endless = try await lib.run(["--json", "holidays", "import", daily, "--years", "2027"])
        #expect(try Self.json(endless.stdout).count == 365, "\(endless.stderr)")
        let removed = try await lib.run(["holidays", "remove", "daily"])
        #expect(removed.status == 0 && removed.stdout == "365\n", "\(removed.stderr)")
    }

    /// When the alarm that skips holidays rings first: half an hour from now (at any hour of the
    /// day, so the test never races midnight); the other rings the minute before.
    static let first = Date().addingTimeInterval(1800)
    static func clock(_ date: Date) -> String {
        let c = Calendar.current.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", c.hour!, c.minute!)
    }

    /// The local date `days` after the first ring's, as the binary (same time zone) sees it.
    static func day(_ days: Int) -> String {
        let date = Calendar.current.date(byAdding: .day, value: days, to: first)!
        let c = Calendar.current.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    @Test("An alarm that skips holidays rings past them in every surface; removed, it rings on them again", arguments: ["embedded", "systemd"])
    func alarmSkipsHolidays(backend: String) async throws {
        let lib = CLILibrary()
        let scheduler = backend == "systemd" ? ["--scheduler", "systemd", "--unit-dir", lib.dir.file("units")] : ["--scheduler", "embedded"]
        let clip = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        _ = try await lib.ok(["manifesto", "set", clip, "-q"])
        let skipping = try await lib.ok(scheduler + ["alarm", "add", "manifesto", "--at", Self.clock(Self.first), "--days", "daily", "--skip-holidays", "-q"])
        let plain = try await lib.ok(["alarm", "add", "manifesto", "--at", Self.clock(Self.first.addingTimeInterval(-60)), "--days", "daily", "-q"])
        func next(_ id: String) async throws -> String {
            let listed = try #require(try Self.json(try await lib.ok(["alarm", "list", "--json"])).first { $0["id"] as? String == id })
            let held = try Self.json(try await lib.ok(["scheduler", "list", "--json"])).first { $0["id"] as? String == id }
            #expect(held?["next"] as? String == listed["next"] as? String, "the scheduler rings at the list's next: \(String(describing: held)) vs \(listed)")
            return String((listed["next"] as? String ?? "").prefix(10))
        }
        #expect(try await next(skipping) == Self.day(0))
        // The first ring's day and the next are holidays.
        let file = lib.dir.file("days.ics")
        try Self.calendar(
            "BEGIN:VEVENT\r\nUID:a@x\r\nDTSTART;VALUE=DATE:\(Self.day(0).replacingOccurrences(of: "-", with: ""))\r\n"
                + "DTEND;VALUE=DATE:\(Self.day(2).replacingOccurrences(of: "-", with: ""))\r\nSUMMARY:Two days off\r\nEND:VEVENT\r\n"
        ).write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try await lib.run(["holidays", "import", file])
        #expect(imported.stderr.contains("1 alarm that skip holidays re-scheduled"), "\(imported.stderr)")
        #expect(try await next(skipping) == Self.day(2), "past both holidays")
        let plainDay = Calendar.current.dateComponents([.year, .month, .day], from: Self.first.addingTimeInterval(-60))
        #expect(
            try await next(plain) == String(format: "%04d-%02d-%02d", plainDay.year!, plainDay.month!, plainDay.day!),
            "an alarm that does not skip holidays is not moved")
        if backend == "systemd" {
            let timer = try String(contentsOfFile: lib.dir.file("units/voicealarm-\(skipping).timer"), encoding: .utf8)
            let at = Self.clock(Self.first)
            #expect(!timer.contains(Self.day(0) + " \(at)") && !timer.contains(Self.day(1) + " \(at)") && timer.contains("2199"), "\(timer)")
        }
        _ = try await lib.ok(["alarm", "edit", skipping, "--skip-holidays", "off", "-q"])
        #expect(try await next(skipping) == Self.day(0))
        _ = try await lib.ok(["alarm", "edit", skipping, "--skip-holidays", "on", "-q"])
        #expect(try await next(skipping) == Self.day(2))
        _ = try await lib.ok(["holidays", "remove", "-q"])
        #expect(try await next(skipping) == Self.day(0), "no holidays left: it rings at its first ring again")
    }

    @Test(
        "Files refused: one error line naming the file and why, exit 1, nothing imported",
        arguments: [
            ("not-a-calendar", "not an iCalendar file"), ("empty", "the file is empty"), ("undated", "no event with a date"),
            ("huge", "larger than the 4 MB"), ("crowded", "more than 5000 events"), ("missing", "No such file"), ("binary", "not an iCalendar file"),
        ])
    func refused(kind: String, words: String) async throws {
        let lib = CLILibrary()
        _ = try await lib.ok(["holidays", "list", "-q"])  // the library exists
        let file = lib.dir.file("\(kind).ics")
        switch kind {
        case "not-a-calendar": try "Dear diary,\nno holidays this year.\n".write(toFile: file, atomically: true, encoding: .utf8)
        case "empty": try "\n  \n".write(toFile: file, atomically: true, encoding: .utf8)
        case "undated": try Self.calendar("BEGIN:VEVENT\r\nUID:u@x\r\nSUMMARY:Someday\r\nEND:VEVENT\r\n").write(toFile: file, atomically: true, encoding: .utf8)
        case "huge": try Data(repeating: UInt8(ascii: "A"), count: 4 * 1024 * 1024 + 1).write(to: URL(fileURLWithPath: file))
        case "crowded":
            let events = (0..<5001).map { "BEGIN:VEVENT\r\nUID:\($0)@x\r\nDTSTART;VALUE=DATE:20270101\r\nEND:VEVENT\r\n" }.joined()
            try Self.calendar(events).write(toFile: file, atomically: true, encoding: .utf8)
        case "binary": try Data([0, 1, 2, 0xFF, 0xFE, 0]).write(to: URL(fileURLWithPath: file))
        default: break
        }
        let before = try lib.files()
        let result = try await lib.run(["holidays", "import", file])
        #expect(result.status == 1, "\(result.stderr)")
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 1 && errors[0].contains(file) && errors[0].contains(words), "\(result.stderr)")
        #expect(try lib.files() == before, "nothing imported")
    }
}
