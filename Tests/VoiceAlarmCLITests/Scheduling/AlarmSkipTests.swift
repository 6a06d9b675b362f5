import Foundation
import TestSupport
import Testing

/// `alarm skip` and `alarm unskip` through the binary, with each scheduler backend: the next
/// ring moves past what is skipped in `alarm list`, `scheduler list` and a systemd timer's own
/// next elapse alike; undo puts it back; bad input changes nothing.
@Suite("Skipping rings", .serialized)
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

    @Test(
        "Bad input: one error line, the right exit, the library unchanged to the byte",
        arguments: [
            (["--date", "2026-02-30"], Int32(64), "2026-02-30"), (["--date", "2020-01-01"], 1, "has passed"),
            (["--until", "2020-01-01"], 1, "has passed"), (["--date", "2099-01-01"], 1, "more than a year ahead"),
            (["--date", "2030-01-01", "--until", "2030-01-02"], 64, "exclude each other"),
        ] as [([String], Int32, String)])
    func badInput(options: [String], status: Int32, named: String) async throws {
        let (lib, id) = try await Self.library("embedded")
        let once = try await lib.ok(["alarm", "add", "manifesto", "--at", "09:00", "-q"])
        let before = try lib.files()
        let result = try await lib.run(["alarm", "skip", id] + options)
        #expect(result.status == status, "\(options): \(result.stderr)")
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 1 && errors[0].contains(named), "\(result.stderr)")
        for (arguments, words) in [
            (["alarm", "skip", once], "rings once"), (["alarm", "skip", "ffffffff"], "ffffffff"), (["alarm", "unskip", id], "nothing is skipped"),
            (["alarm", "unskip", id, "--date", "2030-01-01"], "nothing is skipped"),
        ] {
            let refused = try await lib.run(arguments)
            #expect(refused.status == 1 && refused.stderr.contains(words), "\(arguments): \(refused.stderr)")
        }
        #expect(try lib.files() == before, "nothing changed")
    }

    @Test("The daemon, on a faked clock: a skipped day passes with a line in the event log and no ring; the next day rings", .timeLimit(.minutes(2)))
    func daemonSkips() async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm(at: "07:00")
        let utc = ["TZ": "UTC"]
        #expect(try await lib.run(["alarm", "edit", id, "--days", "daily", "-q"], environment: utc).status == 0)
        #expect(try await lib.run(["alarm", "skip", id, "--date", "2027-01-04", "-q"], environment: utc).status == 0)
        let skipped = try FakeTimeDaemon(lib, fakeStart: "2027-01-04 06:59:55")
        #expect(await skipped.waitForEvent("skipped alarm \(id): due 2027-01-04T07:00:00"))
        await pause(1)
        _ = await skipped.stop()
        let log = try String(contentsOfFile: "\(lib.dataDir)/events.log", encoding: .utf8)
        #expect(!log.contains("ringing alarm \(id)"), "no ring on the skipped day: \(log)")
        let next = try FakeTimeDaemon(lib, fakeStart: "2027-01-05 06:59:55")
        #expect(await next.waitForEvent("ringing alarm \(id)"), "the day after rings")
        _ = await next.stop()
    }
}
