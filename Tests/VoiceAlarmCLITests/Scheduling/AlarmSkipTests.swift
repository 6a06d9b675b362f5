import Foundation
import TestSupport
import Testing

/// `alarm skip` and `alarm unskip` through the binary, with each scheduler backend: the next
/// ring moves past what is skipped in `alarm list`, `scheduler list` and a systemd timer's own
/// next elapse alike; undo puts it back; bad input changes nothing.
@Suite("Skipping rings")
struct AlarmSkipTests {
    static func json(_ text: String) throws -> [[String: Any]] { try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] ?? [] }

    /// A daily 06:45 alarm (every day: each skip moves the next ring by a day).
    static func library(_ backend: String) async throws -> (CLILibrary, String) {
        let lib = CLILibrary()
        let scheduler = backend == "systemd" ? ["--scheduler", "systemd", "--unit-dir", lib.dir.file("units")] : ["--scheduler", "embedded"]
        let clip = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        _ = try await lib.ok(["manifesto", "set", clip, "-q"])
        return (lib, try await lib.ok(scheduler + ["alarm", "add", "manifesto", "--at", "06:45", "--days", "daily", "-q"]))
    }

    /// The alarm as listed, and the next ring the scheduler holds for it (the same, or the test fails).
    static func next(_ lib: CLILibrary, _ id: String) async throws -> (listed: [String: Any], next: String) {
        let listed = try #require(try json(try await lib.ok(["alarm", "list", "--json"])).first { $0["id"] as? String == id })
        let held = try json(try await lib.ok(["scheduler", "list", "--json"])).filter { $0["id"] as? String == id }
        let next = try #require(listed["next"] as? String)
        #expect(held.count == 1 && held.first?["next"] as? String == next, "the scheduler rings at the list's next ring: \(held) vs \(next)")
        return (listed, next)
    }

    /// The next elapse systemd works out from the timer's own `OnCalendar=` lines (`systemd-analyze calendar`), as `YYYY-MM-DD HH:MM`.
    static func systemdNext(_ lib: CLILibrary, _ id: String) async throws -> String {
        let timer = try String(contentsOfFile: lib.dir.file("units/voicealarm-\(id).timer"), encoding: .utf8)
        let expressions = timer.split(separator: "\n").filter { $0.hasPrefix("OnCalendar=") }.map { String($0.dropFirst("OnCalendar=".count)) }
        var elapses: [String] = []
        for expression in expressions {
            let analyzed = try await ProcessRunner.run("/usr/bin/systemd-analyze", ["calendar", expression])
            #expect(analyzed.status == 0, "systemd reads \(expression): \(analyzed.stderr)")
            guard let line = analyzed.stdout.split(separator: "\n").first(where: { $0.contains("Next elapse:") }), !line.contains("never") else { continue }
            // "    Next elapse: Tue 2026-12-08 06:45:00 UTC" → "2026-12-08 06:45"
            let words = line.split(separator: " ")
            elapses.append("\(words[3]) \(words[4].prefix(5))")
        }
        return try #require(elapses.min())
    }

    static func localDay(_ iso: String) -> String { String(iso.prefix(10)) }

    @Test("Skip next, a day, until a day; unskip undoes each; every surface tells the same next ring", arguments: ["embedded", "systemd"])
    func skipAndUndo(backend: String) async throws {
        let (lib, id) = try await Self.library(backend)
        let first = try await Self.next(lib, id).next
        let skipped = try await lib.run(["alarm", "skip", String(id.prefix(8))])
        #expect(skipped.status == 0 && skipped.stdout == id + "\n", "\(skipped.stderr)")
        let (listed, second) = try await Self.next(lib, id)
        #expect(listed["skipped"] as? [String] == [Self.localDay(first)] && second > first, "\(listed)")
        #expect(skipped.stderr.contains("skipping \(Self.localDay(first)); it rings next"), "\(skipped.stderr)")
        if backend == "systemd" {
            #expect(
                try await Self.systemdNext(lib, id) == String(second.prefix(16)).replacingOccurrences(of: "T", with: " "),
                "the timer elapses at the true next ring")
        }
        // Another day by date, then a pause through the day after: the next ring is the day after the pause.
        let third = try await Self.next(lib, id).next
        _ = try await lib.ok(["alarm", "skip", id, "--date", Self.localDay(third), "-q"])
        let pausedTo = try await Self.next(lib, id).next
        _ = try await lib.ok(["alarm", "skip", id, "--until", Self.localDay(pausedTo), "-q"])
        let (paused, afterPause) = try await Self.next(lib, id)
        #expect(paused["pausedThrough"] as? String == Self.localDay(pausedTo) && afterPause > pausedTo, "\(paused)")
        #expect(try await lib.ok(["alarm", "list"]).contains("paused through \(Self.localDay(pausedTo))"))
        if backend == "systemd" {
            #expect(try await Self.systemdNext(lib, id) == String(afterPause.prefix(16)).replacingOccurrences(of: "T", with: " "))
            let verify = try await ProcessRunner.run(
                "/usr/bin/systemd-analyze", ["verify", lib.dir.file("units/voicealarm-\(id).timer"), lib.dir.file("units/voicealarm-\(id).service")])
            #expect(verify.status == 0, "\(verify.stderr)")
        }
        // Resume: the pause goes, and the days inside it with it.
        _ = try await lib.ok(["alarm", "unskip", id, "-q"])
        let resumed = try await Self.next(lib, id)
        #expect(resumed.listed["pausedThrough"] is NSNull && resumed.next == first, "\(resumed.listed)")
        // Undo the earliest of two days, then all.
        _ = try await lib.ok(["alarm", "skip", id, "-q"])
        _ = try await lib.ok(["alarm", "skip", id, "--date", Self.localDay(third), "-q"])
        _ = try await lib.ok(["alarm", "unskip", id, "-q"])
        #expect(try await Self.next(lib, id).listed["skipped"] as? [String] == [Self.localDay(third)])
        _ = try await lib.ok(["alarm", "unskip", id, "--all", "-q"])
        let back = try await Self.next(lib, id)
        #expect(back.next == first && (back.listed["skipped"] as? [String])?.isEmpty == true, "\(back.listed)")
        if backend == "systemd" {
            let timer = try String(contentsOfFile: lib.dir.file("units/voicealarm-\(id).timer"), encoding: .utf8)
            #expect(timer.contains("OnCalendar=*-*-* 06:45:00") && !timer.contains("2199"), "the plain pattern again: \(timer)")
        }
    }

    @Test("Bad input: one error line, the right exit, the library unchanged to the byte (one library, every case in turn)")
    func badInput() async throws {
        let (lib, id) = try await Self.library("embedded")
        let once = try await lib.ok(["alarm", "add", "manifesto", "--at", "09:00", "-q"])
        let before = try lib.files()
        let cases: [([String], Int32, String)] = [
            (["alarm", "skip", id, "--date", "2026-02-30"], 64, "2026-02-30"), (["alarm", "skip", id, "--date", "2020-01-01"], 1, "has passed"),
            (["alarm", "skip", id, "--until", "2020-01-01"], 1, "has passed"), (["alarm", "skip", id, "--date", "2099-01-01"], 1, "more than a year ahead"),
            (["alarm", "skip", id, "--date", "2030-01-01", "--until", "2030-01-02"], 64, "exclude each other"),
            (["alarm", "skip", once], 1, "rings once"), (["alarm", "skip", "ffffffff"], 1, "ffffffff"),
            (["alarm", "unskip", id], 1, "nothing is skipped"), (["alarm", "unskip", id, "--date", "2030-01-01"], 1, "nothing is skipped"),
        ]
        for (arguments, status, named) in cases {
            let result = try await lib.run(arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
            #expect(errors.count == 1 && errors[0].contains(named), "\(arguments): \(result.stderr)")
            #expect(try lib.files() == before, "\(arguments): nothing changed")
        }
    }

    @Test("With systemd timers, a skipped day that passed is forgotten at the next reconcile and written to the event log")
    func passedSkipLogged() async throws {
        let (lib, id) = try await Self.library("systemd")
        _ = try await lib.ok(["alarm", "skip", id, "--date", "2027-01-04", "-q"])
        let later = try await ProcessRunner.run(
            FakeClock.wrapper, ["-f", "@2027-01-05 12:00:00", ProjectPaths.binary, "--data-dir", lib.dataDir, "reconcile", "-q"])
        #expect(later.status == 0, "\(later.stderr)")
        let log = (try? String(contentsOfFile: "\(lib.dataDir)/events.log", encoding: .utf8)) ?? ""
        #expect(log.contains("skipped alarm \(id): due 2027-01-04T06:45:00"), "\(log)")
        let listed = try #require(try Self.json(try await lib.ok(["alarm", "list", "--json"])).first)
        #expect((listed["skipped"] as? [String])?.isEmpty == true, "forgotten: \(listed)")
    }

    /// Two weeks of one weekday alarm in Berlin, walked day by day with the real daemon on a faked
    /// clock, across the start of summer time (Sunday 28 March 2027): skipped on Wednesday it rings
    /// Tuesday and Thursday; Good Friday, imported from an .ics, it skips; paused until the next
    /// Friday, it rings again the Monday after, at 06:45 summer time; an alarm turned off never
    /// rings; every skipped ring is in the event log as its time passes. `make test` walks the
    /// first three days; `make test-full` all of them.
    @Test("Two weeks with skips, a holiday, a pause and an off alarm, across summer time", .timeLimit(.minutes(4)))
    func twoWeeks() async throws {
        let lib = try RingLibrary()
        let berlin = ["TZ": "Europe/Berlin"]
        func ok(_ arguments: [String]) async throws -> String {
            let result = try await lib.run(arguments, environment: berlin)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let clip = try await ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        _ = try await ok(["manifesto", "set", clip, "-q"])
        let id = try await ok(["alarm", "add", "manifesto", "--at", "06:45", "--days", "weekdays", "--skip-holidays", "-q"])
        let off = try await ok(["alarm", "add", "manifesto", "--at", "06:46", "--days", "weekdays", "-q"])
        _ = try await ok(["alarm", "off", off, "-q"])
        let ics = lib.dir.file("easter.ics")
        try
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:gf@x\r\nDTSTART;VALUE=DATE:20270326\r\nSUMMARY:Good Friday\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            .write(toFile: ics, atomically: true, encoding: .utf8)
        _ = try await ok(["holidays", "import", ics, "--years", "2027", "-q"])
        _ = try await ok(["alarm", "skip", id, "--date", "2027-03-24", "-q"])
        // (day, what the daemon does at 06:45 local time); on the Saturday between the weeks, the
        // person pauses the alarm until the next Friday (as on that day: the pause runs from then).
        let firstWeek: [(String, String)] = [
            ("2027-03-23", "rings +01:00"), ("2027-03-24", "skips +01:00"), ("2027-03-25", "rings +01:00"), ("2027-03-26", "skips +01:00"),
        ]
        let secondWeek: [(String, String)] = [("2027-03-29", "skips +02:00"), ("2027-04-02", "skips +02:00"), ("2027-04-05", "rings +02:00")]
        func events() -> String { (try? String(contentsOfFile: "\(lib.dataDir)/events.log", encoding: .utf8)) ?? "" }
        func walk(_ days: [(String, String)]) async throws {
            for (day, expected) in days {
                let daemon = try FakeTimeDaemon(lib, fakeStart: "\(day) 06:44:56", timeZone: "Europe/Berlin")
                let offset = String(expected.suffix(6))
                if expected.hasPrefix("rings") {
                    #expect(await daemon.waitForEvent("\(day)T06:45:0", seconds: 20), "\(day) rings: \(events().suffix(600))")
                    let line = events().split(separator: "\n").first { $0.contains("ringing alarm \(id)") && $0.hasPrefix("\(day)T06:45:0") }
                    #expect(line?.contains(offset) == true, "rang at 06:45 \(offset) on \(day): \(String(describing: line))")
                } else {
                    #expect(
                        await daemon.waitForEvent("skipped alarm \(id): due \(day)T06:45:00\(offset)", seconds: 20),
                        "\(day) is skipped: \(events().suffix(600))")
                }
                _ = await daemon.stop()
            }
        }
        try await walk(TestScope.cases(firstWeek, quick: Array(firstWeek.prefix(3))))
        if TestScope.full {
            var environment = lib.devices.environment
            environment["TZ"] = "Europe/Berlin"
            let paused = try await ProcessRunner.run(
                FakeClock.wrapper,
                ["-f", "@2027-03-27 12:00:00", ProjectPaths.binary, "--data-dir", lib.dataDir, "alarm", "skip", id, "--until", "2027-04-02"],
                environment: environment)
            #expect(paused.status == 0 && paused.stderr.contains("paused through 2027-04-02; it rings next Mon 2027-04-05 06:45"), "\(paused.stderr)")
            try await walk(secondWeek)
        }
        let log = events()
        for (day, expected) in firstWeek + secondWeek where expected.hasPrefix("skips") {
            #expect(!log.split(separator: "\n").contains { $0.hasPrefix("\(day)T") && $0.contains("ringing alarm \(id)") }, "no ring on \(day)")
        }
        // The off alarm's minute passes on a weekday: nothing rings, nothing is logged for it.
        let quiet = try FakeTimeDaemon(lib, fakeStart: "2027-03-23 06:45:56", timeZone: "Europe/Berlin")
        await pause(6)
        _ = await quiet.stop()
        #expect(!events().contains(off), "the off alarm never rang: \(events().suffix(400))")
    }
}
