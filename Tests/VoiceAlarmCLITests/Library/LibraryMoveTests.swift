import Foundation
import TestSupport
import Testing

/// `export` and `import` through the binary: a library carried whole to a fresh data dir of
/// another account (alarms, ringtones to the byte, the scheduler), archives checked with
/// Python's tarfile, every spoiled archive refused with one line and the library unchanged to
/// the byte, clashes named, and no secret ever written into an archive.
@Suite("Moving a library to a new machine")
struct LibraryMoveTests {
    static let script = "\(ProjectPaths.root)/Tests/Support/library_archive.py"

    static func list(_ text: String) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] ?? []
    }

    /// What Python's tarfile reads in the archive: its members, its manifest, whether every file
    /// the manifest names has its length and SHA-256 (and nothing else is there).
    static func checked(_ archive: String) async throws -> [String: Any] {
        let result = try await ProcessRunner.run("/usr/bin/python3", [script, "check", archive])
        guard result.status == 0 else { throw TestSupportError("library_archive.py check: \(result.stderr)") }
        return try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any] ?? [:]
    }

    static func iCalendar(_ path: String) throws {
        try
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a@school\r\nDTSTART;VALUE=DATE:20270301\r\nRRULE:FREQ=YEARLY\r\nSUMMARY:Spring day\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Twelve recordings (the six samples and six spoken by eSpeak NG), three playlists, the
    /// manifesto, a setting, holidays, and five alarms: one off, one with a skip, one with its
    /// voice switched off (the default tone), one with snooze and holidays skipped.
    static func fullLibrary() async throws -> (CLILibrary, alarms: [String]) {
        let lib = CLILibrary()
        var clips: [String] = []
        for file in ["calm.wav", "grateful.m4a", "kind.ogg", "manifesto.flac", "ready.mp3", "strong.flac"] {
            clips.append(try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/\(file)", "-q"]))
        }
        for text in ["I am rested.", "Today is mine.", "I rise with ease.", "I am grateful for today.", "I keep my word.", "I begin gently."] {
            clips.append(try await lib.ok(["clip", "say", text, "-q"]))
        }
        _ = try await lib.ok(["playlist", "create", "morning", clips[0], clips[1], clips[6], "-q"])
        _ = try await lib.ok(["playlist", "create", "weekend", clips[2], clips[3], clips[7], clips[8], "-q"])
        _ = try await lib.ok(["playlist", "create", "evening", clips[4], clips[5], clips[9], clips[11], "-q"])
        _ = try await lib.ok(["manifesto", "set", clips[10], "-q"])
        _ = try await lib.ok(["settings", "gap", "0.2", "-q"])
        try iCalendar(lib.dir.file("school.ics"))
        _ = try await lib.ok(["holidays", "import", lib.dir.file("school.ics"), "--name", "school", "-q"])
        let work = try await lib.ok([
            "alarm", "add", "morning", "--at", "06:45", "--days", "mon-fri", "--label", "Work", "--snooze", "9", "--skip-holidays", "-q",
        ])
        let weekend = try await lib.ok(["alarm", "add", "weekend", "--at", "08:30", "--days", "sat,sun", "-q"])
        let off = try await lib.ok(["alarm", "add", "evening", "--at", "21:00", "--days", "sun", "-q"])
        let skipped = try await lib.ok(["alarm", "add", "morning", "--at", "07:15", "--days", "sat", "-q"])
        let standard = try await lib.ok(["alarm", "add", "manifesto", "--at", "06:00", "--days", "mon-fri", "-q"])
        _ = try await lib.ok(["alarm", "off", off, "-q"])
        _ = try await lib.ok(["alarm", "skip", skipped, "-q"])
        _ = try await lib.ok(["voice", "off", standard, "-q"])
        return (lib, [work, weekend, off, skipped, standard])
    }

    @Test("Round trip into another account's fresh data dir: the same alarms, ringtones to the byte, the same schedule", .timeLimit(.minutes(6)))
    func roundTrip() async throws {
        let (lib, alarms) = try await Self.fullLibrary()
        let archive = lib.dir.file("alarms.tar")
        let exported = try await lib.run(["export", archive, "--json"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let summary = try JSONSerialization.jsonObject(with: exported.stdoutData) as? [String: Any] ?? [:]
        #expect(summary["clips"] as? Int == 12 && summary["playlists"] as? Int == 3 && summary["alarms"] as? Int == 5, "\(summary)")
        #expect(summary["settings"] as? [String] == ["gap"])

        // Independent readers: GNU tar's listing, Python's tarfile with the manifest's checksums.
        let listing = try await ProcessRunner.run("/bin/tar", ["-tvf", archive])
        #expect(listing.status == 0)
        let names = listing.stdout.split(separator: "\n").map { String($0.split(separator: " ").last ?? "") }
        #expect(names.filter { $0.hasPrefix("voicealarm-export/clips/") && $0.hasSuffix(".flac") }.count == 12, "\(listing.stdout)")
        #expect(names.allSatisfy { $0.hasPrefix("voicealarm-export") })
        let read = try await Self.checked(archive)
        #expect(read["verified"] as? Bool == true, "every file as the manifest says, nothing more")
        let manifest = read["manifest"] as? [String: Any] ?? [:]
        #expect(manifest["formatVersion"] as? Int == 1 && (manifest["files"] as? [Any])?.count == 13)
        for name in try FileManager.default.contentsOfDirectory(atPath: "\(lib.dataDir)/clips") {
            let stored = try Data(contentsOf: URL(fileURLWithPath: "\(lib.dataDir)/clips/\(name)"))
            let sha = try await ProcessRunner.run("/usr/bin/sha256sum", ["\(lib.dataDir)/clips/\(name)"]).stdout.prefix(64)
            let entry = (manifest["files"] as? [[String: Any]])?.first { $0["path"] as? String == "clips/\(name)" }
            #expect(entry?["sha256"] as? String == String(sha) && entry?["bytes"] as? Int == stored.count, "\(name)")
        }

        // The new machine: another account, a fresh data dir, a copy of the binary and the archive.
        let user = try await testAccount()
        let machine = TemporaryDirectory("new-machine")
        chmod(machine.path, 0o755)
        let binary = machine.file("voicealarm"), copy = machine.file("alarms.tar"), data = machine.file("data")
        try FileManager.default.copyItem(atPath: ProjectPaths.binary, toPath: binary)
        try FileManager.default.copyItem(atPath: archive, toPath: copy)
        try await ProcessRunner.mustRun("/bin/chown", ["-R", user, machine.path])
        func there(_ arguments: [String]) async throws -> ProcessResult {
            try await runAs(user, in: machine.path, binary, ["--data-dir", data] + arguments)
        }
        let dry = try await there(["import", copy, "--dry-run"])
        #expect(dry.status == 0 && dry.stderr.contains("Would import 12 recordings, 3 playlists, 5 alarms"), "\(dry.stderr)")
        let clipsAfterDryRun = (try? FileManager.default.contentsOfDirectory(atPath: "\(data)/clips")) ?? []
        #expect(clipsAfterDryRun.isEmpty, "a dry run stores no recording: \(clipsAfterDryRun)")
        let imported = try await there(["import", copy, "--json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let report = try JSONSerialization.jsonObject(with: imported.stdoutData) as? [String: Any] ?? [:]
        #expect(Set(report["alarms"] as? [String] ?? []) == Set(alarms) && (report["clips"] as? [String])?.count == 12, "\(report)")
        #expect(report["manifesto"] as? Bool == true && report["settings"] as? [String] == ["gap"] && report["holidays"] as? Int ?? 0 > 0)
        #expect(machine.contents().sorted() == ["alarms.tar", "data", "voicealarm"], "no staging folder left behind")

        // The alarms, field by field: nothing differs (ids, on/off, skips, voice, snooze, next…).
        let before = try Self.list(try await lib.ok(["alarm", "list", "--all", "--json"])).sorted { "\($0["id"]!)" < "\($1["id"]!)" }
        let after = try Self.list(try await there(["alarm", "list", "--all", "--json"]).stdout).sorted { "\($0["id"]!)" < "\($1["id"]!)" }
        #expect(after.count == 5)
        #expect(before.map { NSDictionary(dictionary: $0) } == after.map { NSDictionary(dictionary: $0) }, "\(before)\nvs\n\(after)")
        // Every ringtone rebuilt from the same recordings and settings: the same bytes.
        let sounds = try FileManager.default.contentsOfDirectory(atPath: "\(lib.dataDir)/Sounds").filter { !$0.hasPrefix(".") }.sorted()
        #expect(sounds.count == 4, "four voice ringtones (one alarm rings the default tone): \(sounds)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(data)/Sounds").filter { !$0.hasPrefix(".") }.sorted() == sounds)
        for name in sounds {
            let same = try await ProcessRunner.run("/usr/bin/cmp", ["\(lib.dataDir)/Sounds/\(name)", "\(data)/Sounds/\(name)"])
            #expect(same.status == 0, "\(name): \(same.stdout)")
        }
        // The embedded scheduler holds the same alarms, at the same next rings (the off one in neither).
        let normalise = { (text: String, dir: String) in
            try Self.list(text.replacingOccurrences(of: dir, with: "DATA")).sorted { "\($0["id"]!)" < "\($1["id"]!)" }
        }
        let heldBefore = try normalise(try await lib.ok(["scheduler", "list", "--json"]), lib.dataDir)
        let heldAfter = try normalise(try await there(["scheduler", "list", "--json"]).stdout, data)
        #expect(heldAfter.count == 4 && !heldAfter.contains { $0["id"] as? String == alarms[2] })
        #expect(heldBefore.map { NSDictionary(dictionary: $0) } == heldAfter.map { NSDictionary(dictionary: $0) }, "\(heldBefore)\nvs\n\(heldAfter)")
        // Another import into it is refused without --merge, naming the alarms already there.
        let again = try await there(["import", copy])
        #expect(again.status == 1 && again.stderr.contains("already has 5 alarms") && again.stderr.contains("--merge"), "\(again.stderr)")
    }

    /// A small library's archive and the spoiled ones made from it, and a library (one
    /// recording, no alarm) that archives are imported into, kept in one folder for every case.
    static let fixture = Task<(folder: TemporaryDirectory, archive: String, bad: String, target: String), any Error> {
        let folder = TemporaryDirectory("move-fixture", in: ProcessFolder.path)  // held to the process's end
        let source = CLILibrary()
        let clip = try await source.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        _ = try await source.ok(["playlist", "create", "morning", clip, "-q"])
        _ = try await source.ok(["alarm", "add", "morning", "--at", "06:45", "--days", "mon-fri", "-q"])
        let archive = folder.file("good.tar"), bad = folder.file("bad")
        _ = try await source.ok(["export", archive, "-q"])
        try FileManager.default.createDirectory(atPath: bad, withIntermediateDirectories: true)
        let made = try await ProcessRunner.run("/usr/bin/python3", [script, "bad", archive, bad])
        guard made.status == 0 else { throw TestSupportError("library_archive.py bad: \(made.stderr)") }
        let target = CLILibrary()
        _ = try await target.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/kind.ogg", "-q"])
        try FileManager.default.copyItem(atPath: target.dataDir, toPath: folder.file("target"))
        return (folder, archive, bad, folder.file("target"))
    }

    /// A library of its own holding a copy of the fixture's target.
    static func target() async throws -> (CLILibrary, archive: String, bad: String) {
        let (_, archive, bad, target) = try await fixture.value
        let lib = CLILibrary()
        try FileManager.default.copyItem(atPath: target, toPath: lib.dataDir)
        return (lib, archive, bad)
    }

    static let badArchives: [(name: String, says: String)] = [
        ("dotdot", "leaves the archive's folder (..)"), ("absolute", "is an absolute path"), ("outside", "outside the archive's folder"),
        ("symlink", "is a symbolic link"), ("hardlink", "is a hard link"), ("device", "is a device"), ("fifo", "is a FIFO"),
        ("oversize", "larger than the 128 MB an entry may be"), ("wrongsha", "its SHA-256 differs"), ("wronglength", "its length differs"),
        ("unknownversion", "format version 99 is not one this voicealarm reads"), ("nomanifest", "no voicealarm-export/manifest.json"),
        ("notjson", "manifest.json cannot be read: not JSON"), ("unlisted", "is not named in the manifest"),
        ("missing", "missing from the archive"), ("truncated", "the archive is truncated"), ("garbage", "not a tar archive"),
        ("toomany", "more than 10000 entries"),
    ]

    @Test("A spoiled archive is refused with one error line naming it and why; the library unchanged to the byte", arguments: badArchives)
    func refused(_ bad: (name: String, says: String)) async throws {
        let (lib, _, folder) = try await Self.target()
        let archive = "\(folder)/\(bad.name).tar"
        let before = try lib.files()
        for options in [["--dry-run"], [], ["--merge", "--json"]] {
            let result = try await lib.run(["import", archive] + options)
            #expect(result.status == 1, "\(bad.name) \(options): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("error: \(archive): ") && lines[0].contains(bad.says), "\(bad.name): \(result.stderr)")
            if options.contains("--json") {
                let error = (try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])?["error"] as? [String: Any]
                #expect(error?["input"] as? String == archive && error?["code"] as? Int == 1, "\(result.stdout)")
            }
            #expect(try lib.files() == before, "\(bad.name) \(options): nothing changed")
            #expect(lib.dir.contents().sorted() == ["data"], "no staging folder left beside the data dir: \(lib.dir.contents())")
        }
    }

    @Test("The good archive the spoiled ones come from imports; usage errors exit 64")
    func goodAndUsage() async throws {
        let (lib, archive, _) = try await Self.target()
        let imported = try await lib.run(["import", archive])
        #expect(imported.status == 0 && imported.stderr.contains("Imported 1 recording, 1 playlist, 1 alarm"), "\(imported.stderr)")
        for arguments in [["import"], ["import", archive, "extra"], ["import", archive, "--merge=yes"], ["export"]] {
            let result = try await lib.run(arguments)
            #expect(result.status == 64 && result.stderr.hasPrefix("error: "), "\(arguments): \(result.stderr)")
        }
        let missing = try await lib.run(["import", lib.dir.file("nowhere.tar")])
        #expect(missing.status == 1 && missing.stderr.split(separator: "\n").count == 1 && missing.stderr.contains("nowhere.tar"), "\(missing.stderr)")
        // An export into a folder that does not exist leaves nothing behind, and no half archive.
        let failed = try await lib.run(["export", lib.dir.file("no-such-folder/x.tar")])
        #expect(failed.status == 1 && failed.stderr.hasPrefix("error: ") && lib.dir.contents().sorted() == ["data"], "\(failed.stderr)")
    }

    @Test("--merge adds what does not clash, keeps ids and the library's settings; a clash is named and nothing imported")
    func merge() async throws {
        let (lib, alarms) = try await Self.fullLibrary()
        let archive = lib.dir.file("alarms.tar")
        _ = try await lib.ok(["export", archive, "-q"])

        // A library with an alarm in the same minute as the archive's "Work" alarm.
        let clashing = CLILibrary()
        let clip = try await clashing.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/strong.flac", "-q"])
        _ = try await clashing.ok(["playlist", "create", "early", clip, "-q"])
        let mine = try await clashing.ok(["alarm", "add", "early", "--at", "06:45", "--days", "wed", "-q"])
        let before = try clashing.files()
        let refused = try await clashing.run(["import", archive])
        #expect(refused.status == 1 && refused.stderr.contains("already has 1 alarm") && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        let clash = try await clashing.run(["import", archive, "--merge"])
        #expect(clash.status == 1 && clash.stderr.split(separator: "\n").count == 1, "\(clash.stderr)")
        #expect(
            clash.stderr.contains("nothing imported") && clash.stderr.contains(alarms[0]) && clash.stderr.contains("overlaps alarm \(mine)"), "\(clash.stderr)")
        #expect(try clashing.files() == before, "nothing imported")

        // One that does not clash: a dry run changes nothing, then everything arrives under its ids.
        let other = CLILibrary()
        let own = try await other.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/strong.flac", "-q"])
        _ = try await other.ok(["playlist", "create", "late", own, "-q"])
        _ = try await other.ok(["settings", "gap", "0.5", "-q"])
        let kept = try await other.ok(["alarm", "add", "late", "--at", "10:00", "--days", "sun", "-q"])
        let untouched = try other.files()
        let dry = try await other.run(["import", archive, "--merge", "--dry-run", "--json"])
        #expect(dry.status == 0 && dry.stderr.contains("Would import"), "\(dry.stderr)")
        let plan = try JSONSerialization.jsonObject(with: dry.stdoutData) as? [String: Any] ?? [:]
        #expect(plan["dryRun"] as? Bool == true && plan["merged"] as? Bool == true && (plan["settings"] as? [String])?.isEmpty == true, "\(plan)")
        #expect(try other.files() == untouched, "a dry run writes nothing")
        let merged = try await other.run(["import", archive, "--merge"])
        #expect(merged.status == 0, "\(merged.stderr)")
        let listed = try Self.list(try await other.ok(["alarm", "list", "--all", "--json"])).compactMap { $0["id"] as? String }
        #expect(Set(listed) == Set(alarms + [kept]))
        #expect(try await other.ok(["settings"]).contains("0.5"), "the library's own settings stay")
    }

    @Test("No paired device, token, pairing code, key or certificate is ever written into an archive")
    func noSecrets() async throws {
        let lib = CLILibrary()
        let clip = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        _ = try await lib.ok(["playlist", "create", "morning", clip, "-q"])
        _ = try await lib.ok(["alarm", "add", "morning", "--at", "06:45", "--days", "mon-fri", "-q"])
        let token = try await lib.ok(["token", "create", "backup script"])
        let paired = try await lib.run(["serve", "pair"])
        let code = paired.stdout.components(separatedBy: "code=").last?.prefix(10) ?? ""
        // What `serve` keeps in <data-dir>/web: an authority's key and certificate.
        let web = "\(lib.dataDir)/web"
        try FileManager.default.createDirectory(atPath: web, withIntermediateDirectories: true)
        try "-----BEGIN PRIVATE KEY-----\nSECRETKEY\n-----END PRIVATE KEY-----\n".write(toFile: "\(web)/authority-key.pem", atomically: true, encoding: .utf8)
        try "-----BEGIN CERTIFICATE-----\nCERT\n-----END CERTIFICATE-----\n".write(toFile: "\(web)/authority.pem", atomically: true, encoding: .utf8)

        let archive = lib.dir.file("alarms.tar")
        _ = try await lib.ok(["export", archive, "-q"])
        let read = try await Self.checked(archive)
        let names = (read["members"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(
            names.allSatisfy {
                $0 == "voicealarm-export" || $0.hasPrefix("voicealarm-export/clips") || $0.hasSuffix("/manifest.json") || $0.hasSuffix("/library.json")
            }, "\(names)")
        for word in ["web", "key", "cert", "token", "device", "pem", "sqlite"] {
            #expect(!names.contains { $0.lowercased().contains(word) }, "\(word) in \(names)")
        }
        let listing = try await ProcessRunner.run("/bin/tar", ["-tf", archive]).stdout
        #expect(!listing.contains("web") && !listing.contains(".pem") && !listing.contains("sqlite"), "\(listing)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: archive))
        for secret in [token, String(code), "SECRETKEY", "PRIVATE KEY", "BEGIN CERTIFICATE", "backup script"] where !secret.isEmpty {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "'\(secret)' is in the archive")
        }
        let files = ((read["manifest"] as? [String: Any])?["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(files.allSatisfy { $0 == "library.json" || $0.hasPrefix("clips/") }, "\(files)")
    }
}
