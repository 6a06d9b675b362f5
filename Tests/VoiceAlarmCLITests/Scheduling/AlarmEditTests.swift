import Foundation
import TestSupport
import Testing

/// `alarm edit` through the binary, with each scheduler backend: one replacement under the same
/// id, the voice file kept unless what it plays changes, every surface telling the same next
/// ring, bad edits refused with nothing changed, and a kill at any point leaving the old alarm or
/// the new one scheduled.
@Suite("Alarms edited in place")
struct AlarmEditTests {
    static func json(_ text: String) throws -> [[String: Any]] { try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] ?? [] }

    /// A library with two playlists of different lengths (calm; calm and kind) and a weekday alarm on the first.
    static func library(_ backend: String) async throws -> (CLILibrary, alarm: String, scheduler: [String]) {
        let lib = CLILibrary()
        let scheduler = backend == "systemd" ? ["--scheduler", "systemd", "--unit-dir", lib.dir.file("units")] : ["--scheduler", "embedded"]
        let calm = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        let kind = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/kind.ogg", "-q"])
        _ = try await lib.ok(["playlist", "create", "morning", calm, "-q"])
        _ = try await lib.ok(["playlist", "create", "weekend", calm, kind, "-q"])
        let alarm = try await lib.ok(scheduler + ["alarm", "add", "morning", "--at", "06:45", "--days", "mon-fri", "--label", "Work", "-q"])
        return (lib, alarm, scheduler)
    }

    static func held(_ lib: CLILibrary, _ id: String) async throws -> [[String: Any]] {
        try json(try await lib.ok(["scheduler", "list", "--json"])).filter { $0["id"] as? String == id }
    }

    @Test("The time and days change under the same id; the voice file stays to the byte; scheduler and list agree", arguments: ["embedded", "systemd"])
    func timeAndDays(backend: String) async throws {
        let (lib, id, _) = try await Self.library(backend)
        let voiceFile = "\(lib.dataDir)/Sounds/\(id).m4a"
        let voice = try Data(contentsOf: URL(fileURLWithPath: voiceFile))
        let edited = try await lib.run(["alarm", "edit", String(id.prefix(8)), "--at", "07:15", "--days", "sat,sun", "--label", "", "--snooze", "9"])
        #expect(edited.status == 0 && edited.stdout == id + "\n", "\(edited.stderr)")
        let listed = try #require(try Self.json(try await lib.ok(["alarm", "list", "--json"])).first)
        #expect(listed["id"] as? String == id && listed["time"] as? String == "07:15" && listed["days"] as? [String] == ["sat", "sun"])
        #expect(listed["label"] is NSNull && listed["snooze"] as? Int == 9, "\(listed)")
        let held = try await Self.held(lib, id)
        #expect(held.count == 1 && held.first?["next"] as? String == listed["next"] as? String, "one, at the new time: \(held) vs \(listed)")
        #expect((listed["next"] as? String)?.contains("T07:15:00") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: voiceFile)) == voice, "nothing was rebuilt")
        if backend == "systemd" {
            let timer = try String(contentsOfFile: lib.dir.file("units/voicealarm-\(id).timer"), encoding: .utf8)
            let calendar = try #require(timer.split(separator: "\n").first { $0.hasPrefix("OnCalendar=") }).dropFirst("OnCalendar=".count)
            let analyzed = try await ProcessRunner.run("/usr/bin/systemd-analyze", ["calendar", String(calendar)])
            #expect(analyzed.status == 0 && analyzed.stdout.contains("07:15:00"), "\(analyzed.stdout)")
            // systemd's own next elapse is the list's next ring.
            let next = try #require(listed["next"] as? String)
            let day = String(next.prefix(10))
            #expect(analyzed.stdout.contains(day), "systemd-analyze's next elapse is on \(day): \(analyzed.stdout)")
        }
    }

    @Test("--plays another target rebuilds the voice file for it; back again, the same bytes as before", arguments: ["embedded", "systemd"])
    func target(backend: String) async throws {
        let (lib, id, _) = try await Self.library(backend)
        let voiceFile = "\(lib.dataDir)/Sounds/\(id).m4a"
        let morning = try Data(contentsOf: URL(fileURLWithPath: voiceFile))
        let morningLength = try await IndependentMeasure.probe(voiceFile).duration
        let edited = try await lib.run(["alarm", "edit", id, "--plays", "weekend"])
        #expect(edited.status == 0 && edited.stderr.contains("Its ringtone was rebuilt for weekend"), "\(edited.stderr)")
        let weekendLength = try await IndependentMeasure.probe(voiceFile).duration
        #expect(weekendLength > morningLength + 1, "the new ringtone plays the longer playlist: \(morningLength) → \(weekendLength)")
        let held = try await Self.held(lib, id)
        #expect(held.count == 1 && held.first?["sound"] as? String == "\(id).m4a")
        _ = try await lib.ok(["alarm", "edit", id, "--plays", "morning", "-q"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: voiceFile)) == morning, "built again from the same recordings: the same bytes")
    }

    /// Each bad edit, with the exit it gets and words its one error line holds.
    static let badEdits: [([String], Int32, String)] = [
        (["--at", "07:30", "--days", "sat"], 1, "overlaps alarm"), (["--plays", "nosuch"], 1, "nosuch"),
        (["--date", "2020-01-01"], 1, "already passed"), (["--date", "2031-02-30"], 64, "2031-02-30"),
        (["--days", "mon", "--date", "2031-01-01"], 64, "--days"), (["--snooze", "31"], 64, "--snooze"), ([], 64, "nothing to change"),
    ]

    @Test("Bad edits: one error line, the right exit, the library and scheduler unchanged to the byte (one library, every case in turn)")
    func badEdits() async throws {
        let (lib, id, _) = try await Self.library("embedded")
        _ = try await lib.ok(["alarm", "add", "weekend", "--at", "07:30", "--days", "sat", "-q"])
        let before = try lib.files()
        for (options, status, named) in Self.badEdits + [(["ffffffff", "--at", "08:00"], 1, "ffffffff")] {
            let arguments = options.first == "ffffffff" ? ["alarm", "edit"] + options : ["alarm", "edit", id] + options
            let result = try await lib.run(arguments)
            #expect(result.status == status, "\(options): \(result.stderr)")
            let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
            #expect(errors.count == 1 && errors[0].contains(named), "\(options): \(result.stderr)")
            #expect(try lib.files() == before, "\(options): nothing changed")
        }
    }

    @Test("A sixth alarm on a target is refused by an edit as by an add, the old alarm still scheduled")
    func sixthOnTarget() async throws {
        let (lib, id, _) = try await Self.library("embedded")
        for minute in ["07:01", "07:02", "07:03", "07:04", "07:05"] {
            _ = try await lib.ok(["alarm", "add", "weekend", "--at", minute, "--days", "sat", "-q"])
        }
        let before = try lib.files()
        let result = try await lib.run(["alarm", "edit", id, "--plays", "weekend"])
        #expect(result.status == 1 && result.stderr.contains("already has 5 alarms"), "\(result.stderr)")
        #expect(try lib.files() == before)
        #expect(try await Self.held(lib, id).first?["next"] as? String != nil)
    }

    /// Four kill points in `make test`, eight in `make test-full`.
    @Test("Killed at any point of an edit, the scheduler holds exactly the old alarm or the new one, and reconcile agrees", arguments: ["embedded", "systemd"])
    func killed(backend: String) async throws {
        let (lib, id, scheduler) = try await Self.library(backend)
        let times = ["06:45", "07:15"]
        var seen: Set<String> = []
        for (round, delay) in TestScope.cases([0.0, 0.005, 0.01, 0.02, 0.04, 0.08, 0.15, 0.3], quick: [0.0, 0.01, 0.04, 0.15]).enumerated() {
            let target = times[(round + 1) % 2], plays = round % 3 == 2 ? ["--plays", round % 2 == 0 ? "weekend" : "morning"] : []
            let edit = Process()
            edit.executableURL = URL(fileURLWithPath: ProjectPaths.binary)
            edit.arguments = ["--data-dir", lib.dataDir, "-q"] + scheduler + ["alarm", "edit", id, "--at", target] + plays
            edit.standardOutput = FileHandle.nullDevice
            edit.standardError = FileHandle.nullDevice
            try edit.run()
            if delay > 0 { await pause(delay) }
            kill(edit.processIdentifier, SIGKILL)
            await edit.ended()
            let held = try await Self.held(lib, id)
            #expect(held.count == 1, "killed after \(delay) s: \(held)")
            let next = held.first?["next"] as? String ?? ""
            #expect(times.contains { next.contains("T\($0):00") }, "the old time or the new: \(next)")
            seen.insert(String(next.dropFirst(11).prefix(5)))
            // A kill during a unit's write may leave its hidden temporary (systemd ignores it); the
            // next command that reads the unit folder removes it.
            let ours = { try FileManager.default.contentsOfDirectory(atPath: lib.dir.file("units")).filter { $0.contains(id) } }
            if backend == "systemd" {
                let units = try ours().filter { !$0.hasPrefix(".") }
                #expect(Set(units) == ["voicealarm-\(id).timer", "voicealarm-\(id).service"], "one timer and one service: \(units)")
            }
            _ = try await lib.ok(["reconcile", "-q"])
            if backend == "systemd" {
                let units = try ours()
                #expect(Set(units) == ["voicealarm-\(id).timer", "voicealarm-\(id).service"], "nothing else of ours after reconcile: \(units)")
            }
            let listed = try #require(try Self.json(try await lib.ok(["alarm", "list", "--json"])).first)
            let after = try await Self.held(lib, id)
            #expect(after.count == 1 && after.first?["next"] as? String == listed["next"] as? String, "reconciled: \(after) vs \(listed)")
            #expect(FileManager.default.fileExists(atPath: "\(lib.dataDir)/Sounds/\(id).m4a"), "the voice file it names is there")
        }
        #expect(!seen.isEmpty)
    }
}
