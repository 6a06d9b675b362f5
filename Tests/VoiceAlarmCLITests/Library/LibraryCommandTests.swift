import Foundation
import TestSupport
import Testing

/// A library in a temporary data dir, driven through the binary.
final class CLILibrary {
    let dir: TemporaryDirectory
    var dataDir: String { dir.file("data") }

    /// A library in a folder of its own in `base` (`TemporaryDirectory`'s).
    init(in base: String = FileManager.default.temporaryDirectory.path) { dir = TemporaryDirectory("cli-library", in: base) }

    func run(_ arguments: [String]) async throws -> ProcessResult {
        try await voicealarm(["--data-dir", dataDir] + arguments)
    }

    /// Runs a command that must succeed; returns its stdout without the newline.
    func ok(_ arguments: [String]) async throws -> String {
        let result = try await run(arguments)
        guard result.status == 0 else { throw TestSupportError("\(arguments) failed (\(result.status)): \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .newlines)
    }

    /// A library of its own holding a copy of this one's data dir (nothing in it open meanwhile).
    func copy() throws -> CLILibrary {
        let copy = CLILibrary()
        try FileManager.default.copyItem(atPath: dataDir, toPath: copy.dataDir)
        return copy
    }

    /// Every file of the data dir, by its path inside it, with its bytes: what a failed command
    /// must leave as it was, to the byte (the database and the scheduler's list included), read
    /// in the test's own process rather than through five listing commands.
    func files() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let root = URL(fileURLWithPath: dataDir)
        for case let url as URL in FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) ?? .init()
        where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            files[String(url.path.dropFirst(root.path.count))] = try Data(contentsOf: url)
        }
        return files
    }
}

@Suite("The library through the command line")
struct LibraryCommandTests {
    @Test("Import, playlist, alarm: ids alone on stdout, the next ring time on stderr, JSON shapes as documented")
    func happyPath() async throws {
        let lib = CLILibrary()
        let clip = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "--title", "I am calm"])
        #expect(clip.count == 36 && clip == clip.lowercased())
        _ = try await lib.ok(["playlist", "create", "morning", String(clip.prefix(8))])
        let added = try await lib.run(["alarm", "add", "morning", "--at", "06:45", "--days", "mon,fri", "--label", "Work"])
        #expect(added.status == 0)
        let id = added.stdout.trimmingCharacters(in: .newlines)
        #expect(UUID(uuidString: id) != nil && id == id.lowercased())
        #expect(added.stderr.contains("rings next"))
        #expect(added.stderr.contains("Tip: this alarm has no snooze (one added with --snooze MINUTES has). Add a backup"))

        let alarms = try await #require(try JSONSerialization.jsonObject(with: Data(lib.ok(["alarm", "list", "--json"]).utf8)) as? [[String: Any]])
        #expect(
            Set(alarms[0].keys) == [
                "id", "target", "time", "days", "date", "label", "on", "voice", "sound", "soundReason", "next",
                "spokenStandIns", "snooze", "snoozedUntil", "skipped", "pausedThrough", "skipsHolidays",
            ])
        #expect(alarms[0]["sound"] as? String == "\(id).m4a")
        #expect(alarms[0]["soundReason"] is NSNull)
        #expect(alarms[0]["days"] as? [String] == ["mon", "fri"])
        let next = try #require(alarms[0]["next"] as? String)
        #expect(next.range(of: #"^\d{4}-\d\d-\d\dT06:45:00[+-]\d\d:\d\d$"#, options: .regularExpression) != nil, "\(next)")

        let clips = try await #require(try JSONSerialization.jsonObject(with: Data(lib.ok(["clip", "list", "--json"]).utf8)) as? [[String: Any]])
        #expect(Set(clips[0].keys) == ["id", "title", "duration", "path", "spokenText"])
        let show = try await #require(try JSONSerialization.jsonObject(with: Data(lib.ok(["playlist", "show", "morning", "--json"]).utf8)) as? [String: Any])
        #expect(show["name"] as? String == "morning")
        let scheduled = try await #require(try JSONSerialization.jsonObject(with: Data(lib.ok(["scheduler", "list", "--json"]).utf8)) as? [[String: Any]])
        #expect(Set(scheduled[0].keys) == ["id", "sound", "next", "schedule"])

        // The sounds dir is remembered once given.
        let custom = lib.dir.file("Library/Sounds")
        _ = try await lib.ok(["--sounds-dir", custom, "voice", "off", id])
        _ = try await lib.ok(["voice", "on", id])
        #expect(FileManager.default.fileExists(atPath: "\(custom)/\(id).m4a"))
    }

    @Test(
        "Bad input: one line, the right exit code, and nothing changed",
        arguments: [
            (["clip", "import", "/nonexistent.wav"], 1, "no such file"),
            (["clip", "import", "TEXT"], 1, "not an audio file"),
            (["clip", "import", "SILENT"], 1, "silent"),
            (["clip", "replace", "00000000", "CALM"], 1, "no such clip"),
            (["clip", "remove", "0123"], 1, "at least 8 characters"),
            // Wildcards of SQL's LIKE once matched the only clip and alarm, and removed them.
            (["clip", "remove", "________", "--force"], 1, "'________': not an id (ids are hexadecimal, as 'clip list' prints them)"),
            (["alarm", "remove", "%%%%%%%%"], 1, "'%%%%%%%%': not an id (ids are hexadecimal, as 'alarm list' prints them)"),
            (["playlist", "add", "morning", "%"], 1, "'%': not an id"),
            (["playlist", "create", "morning"], 1, "already exists"),
            (["playlist", "create", "manifesto"], 1, "reserved for the manifesto"),
            (["playlist", "add", "nope", "CLIP"], 1, "no such playlist"),
            (["playlist", "move", "morning", "1", "9"], 1, "no position 9"),
            (["playlist", "move", "morning", "one", "2"], 64, "not a whole number"),
            (["playlist", "delete", "morning"], 1, "remove them first or pass --with-alarms"),
            (["alarm", "add", "nope", "--at", "07:00"], 1, "no such playlist"),
            (["alarm", "add", "morning", "--at", "25:61"], 64, "'25:61' is not a time"),
            (["alarm", "add", "morning", "--at", "7"], 64, "'7' is not a time"),
            (["alarm", "add", "morning", "--at", "07:00", "--days", "mon,funday"], 64, "'funday' is not a day"),
            (["alarm", "add", "morning", "--at", "07:00", "--date", "2027-02-30"], 64, "is not a date"),
            (["alarm", "add", "morning", "--at", "07:00", "--date", "2020-01-01"], 1, "have already passed"),
            (["alarm", "add", "morning", "--at", "07:00", "--days", "mon", "--date", "2030-01-01"], 64, "exclude each other"),
            (["alarm", "add", "morning", "--at", "06:00", "--days", "mon"], 1, "overlaps alarm"),
            (["alarm", "add", "manifesto", "--at", "06:00", "--date", "2030-01-07"], 1, "overlaps alarm"),
            (["alarm", "add", "morning", "--at", "07:00", "--label", "two\nlines"], 64, "control characters"),
            (["alarm", "add", "morning"], 64, "missing --at"),
            (["alarm", "remove", "ffffffff"], 1, "no such alarm"),
            (["voice", "maybe", "ffffffff"], 64, "unknown voice command 'maybe'"),
            (["settings", "format", "ogg2"], 64, "not a format"),
            (["settings", "colour", "blue"], 64, "unknown setting"),
        ])
    func badInput(_ arguments: [String], _ status: Int32, _ message: String) async throws {
        let fixture = try await BadInputFixture.shared.value
        let lib = try fixture.library.copy()
        let substituted = arguments.map { ["TEXT": fixture.text, "SILENT": fixture.silent, "CALM": BadInputFixture.calm, "CLIP": fixture.clip][$0] ?? $0 }

        let result = try await lib.run(substituted)
        #expect(result.status == status, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.first?.hasPrefix("error: ") == true && lines.first?.contains(message) == true, "\(result.stderr)")
        #expect(lines.count == (status == 64 ? 2 : 1), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let after = try lib.files()
        let changed = Set(after.keys).union(fixture.before.keys).filter { after[$0] != fixture.before[$0] }
        #expect(changed.isEmpty, "changed: \(changed.sorted())")
    }

    @Test("A sixth alarm on one target is refused")
    func sixthAlarm() async throws {
        let lib = CLILibrary()
        let clip = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/kind.ogg"])
        _ = try await lib.ok(["playlist", "create", "morning", clip])
        for minute in 0..<5 { _ = try await lib.ok(["alarm", "add", "morning", "--at", "06:0\(minute)", "--days", "mon", "--quiet"]) }
        let sixth = try await lib.run(["alarm", "add", "morning", "--at", "06:30", "--days", "mon"])
        #expect(sixth.status == 1)
        #expect(sixth.stderr.contains("already has 5 alarms"))
        await #expect(try lib.ok(["alarm", "add", "manifesto", "--at", "06:30", "--days", "mon"]).count == 36)
    }

    @Test("A data dir that cannot be written is refused with a clear line")
    func unwritableDataDir() async throws {
        let result = try await voicealarm(["--data-dir", "/proc/voicealarm-test", "clip", "list"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: /proc/voicealarm-test"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}

/// The library every bad-input case starts from, built once for the suite through the binary (a
/// clip, a playlist 'morning' on it, an alarm at 06:00 on Mondays and Tuesdays) with a text file
/// and a silent recording beside it; each case runs on a copy of its data dir.
private final class BadInputFixture: @unchecked Sendable {
    // Unchecked: nothing changes after init, and cases only read it and copy its data dir.
    static let calm = "\(ProjectPaths.sampleAudio)/calm.wav"
    static let shared = Task { try await BadInputFixture() }

    let library = CLILibrary(in: ProcessFolder.path)  // held to the process's end
    let clip: String
    let text: String
    let silent: String
    /// Every file of its data dir, with its bytes.
    let before: [String: Data]

    private init() async throws {
        clip = try await library.ok(["clip", "import", Self.calm])
        _ = try await library.ok(["playlist", "create", "morning", clip])
        _ = try await library.ok(["alarm", "add", "morning", "--at", "06:00", "--days", "mon,tue"])
        text = library.dir.file("notes.txt")
        try Data("I am calm".utf8).write(to: URL(fileURLWithPath: text))
        silent = library.dir.file("muted.wav")
        try await AudioFixtures.silence(silent, seconds: 2)
        before = try library.files()
    }
}
