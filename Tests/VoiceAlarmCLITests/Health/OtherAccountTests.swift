import Foundation
import TestSupport
import Testing

@Suite("Root, or another account, in a person's library silences nothing", .timeLimit(.minutes(3)))
struct OtherAccountTests {
    @Test(
        "Root in a person's library is refused with what to do, and changes nothing; a voice file the owner cannot read is found and rebuilt",
        .enabled(if: geteuid() == 0, "needs root, as on the build machines"))
    func rootInAPersonsLibrary() async throws {
        let lib = try RingLibrary()
        let (user, binary, id) = try await ownedAlarm(lib)
        let voice = "\(lib.dataDir)/Sounds/\(id).m4a"
        let before = try FileManager.default.attributesOfItem(atPath: voice)

        let asRoot = try await lib.run(["settings", "format", "caf"])
        #expect(asRoot.status == 1, "\(asRoot.stderr)")
        #expect(
            asRoot.stderr.hasPrefix("error: \(lib.dataDir): belongs to user \(user)") && asRoot.stderr.contains("sudo -u \(user) voicealarm"),
            "\(asRoot.stderr)")
        #expect(asRoot.stderr.split(separator: "\n").count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(lib.dataDir)/Sounds") == ["\(id).m4a"])
        #expect(try FileManager.default.attributesOfItem(atPath: voice)[.modificationDate] as? Date == before[.modificationDate] as? Date)
        let owners = try FileManager.default.subpathsOfDirectory(atPath: lib.dataDir).map {
            try FileManager.default.attributesOfItem(atPath: "\(lib.dataDir)/\($0)")[.ownerAccountName] as? String
        }
        #expect(owners.allSatisfy { $0 == user }, "root left nothing of its own in the library: \(owners)")

        // What an earlier root run left: a voice file only root may read.
        #expect(chown(voice, 0, 0) == 0 && chmod(voice, 0o600) == 0)
        let doctor = try await runAsOwner(user, binary, lib, ["doctor"])
        #expect(doctor.status == 1 && doctor.stderr.contains("voice file \(voice) belongs to root and cannot be read by you"), "\(doctor.stderr)")
        #expect(!doctor.stdout.contains("1 with your voice"), "\(doctor.stdout)")
        let build = try await runAsOwner(user, binary, lib, ["build", "--all", "-q"])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: voice)[.ownerAccountName] as? String == user, "made again as the owner's")
        #expect(try await runAsOwner(user, binary, lib, ["alarm", "list", "--json", "-q"]).stdout.contains("\"sound\" : \"\(id).m4a\""))
    }

    @Test(
        "Links another user planted in a library are never followed, by root or by its owner; the owner's own link to a folder of theirs is; a folder the person chose is never tightened silently; a 0666 database is made private",
        .enabled(if: geteuid() == 0, "needs root, as on the build machines"))
    func plantedLinks() async throws {
        let lib = try RingLibrary()
        let (user, binary, id) = try await ownedAlarm(lib)
        // Root's folders, and root's links to them in place of the library's clips/ and Sounds/.
        let x = lib.dir.file("X"), y = lib.dir.file("Y")
        for target in [x, y] {
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            #expect(chown(target, 0, 0) == 0 && chmod(target, 0o755) == 0)
        }
        for name in ["clips", "Sounds"] { try FileManager.default.moveItem(atPath: "\(lib.dataDir)/\(name)", toPath: lib.dir.file("\(name)-kept")) }
        try FileManager.default.createSymbolicLink(atPath: "\(lib.dataDir)/clips", withDestinationPath: x)
        try FileManager.default.createSymbolicLink(atPath: "\(lib.dataDir)/Sounds", withDestinationPath: y)
        let asOwner = try await runAsOwner(user, binary, lib, ["clip", "list"])
        #expect(asOwner.status == 1 && asOwner.stderr.contains("clips: is a symbolic link that user root (0) made, not you"), "\(asOwner.stderr)")
        let asRoot = try await lib.run(["clip", "list"])
        #expect(asRoot.status == 1 && asRoot.stderr.contains("belongs to user \(user)"), "\(asRoot.stderr)")
        for target in [x, y] {
            #expect(try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int == 0o755, "\(target) untouched")
            #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty, "nothing made in \(target)")
        }

        // The owner's own link, to the owner's own folder (Sounds moved to another disk), is followed.
        for name in ["clips", "Sounds"] { try FileManager.default.removeItem(atPath: "\(lib.dataDir)/\(name)") }
        try FileManager.default.moveItem(atPath: lib.dir.file("clips-kept"), toPath: "\(lib.dataDir)/clips")
        let link = try await runAs(user, in: lib.dir.path, "/bin/ln", ["-s", lib.dir.file("Sounds-kept"), "\(lib.dataDir)/Sounds"])
        #expect(link.status == 0, "\(link.stderr)")
        let listed = try await runAsOwner(user, binary, lib, ["alarm", "list", "--json", "-q"])
        #expect(listed.status == 0 && listed.stdout.contains("\"sound\" : \"\(id).m4a\""), "\(listed.stdout)\(listed.stderr)")

        // A sounds dir the person chose, open to others, is made private with a word; a database others may read is made 0600.
        chmod("\(lib.dataDir)/voicealarm.sqlite", 0o666)
        let chosen = lib.dir.file("chosen")
        #expect(try await runAs(user, in: lib.dir.path, "/bin/mkdir", ["-m", "0755", chosen]).status == 0)
        let moved = try await runAsOwner(user, binary, lib, ["--sounds-dir", chosen, "alarm", "list"])
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(moved.stderr.contains("Made \(chosen) private: it was open to other users (mode 0755), it is 0700 now."), "\(moved.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: "\(lib.dataDir)/voicealarm.sqlite")[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: chosen) == ["\(id).m4a"])
    }

    @Test("Walking every alarm with nothing to build writes the library's backup once, not once per alarm")
    func backupOncePerCommand() async throws {
        let lib = try RingLibrary()
        let tone = lib.dir.file("short.wav")
        try await AudioFixtures.tone(tone, seconds: 0.6)
        let clip = try await lib.ok(["clip", "import", tone, "-q"])
        // Five voice alarms, and five on a playlist with nothing recorded yet (the default tone, said again by every walk).
        for playlist in 0..<2 {
            _ = try await lib.ok(["playlist", "create", "p\(playlist)"] + (playlist == 0 ? [clip] : []) + ["-q"])
            for alarm in 0..<5 { _ = try await lib.ok(["alarm", "add", "p\(playlist)", "--at", "0\(playlist):0\(alarm)", "--days", "daily", "-q"]) }
        }
        // Voice files touched since they were checked: each is checked again, and its stamp recorded.
        for name in try FileManager.default.contentsOfDirectory(atPath: "\(lib.dataDir)/Sounds") {
            try await ProcessRunner.mustRun("/usr/bin/touch", ["\(lib.dataDir)/Sounds/\(name)"])
        }
        for command in [["build", "--all"], ["reconcile"]] {
            let trace = lib.dir.file("trace")
            let result = try await ProcessRunner.run(
                "/usr/bin/strace",
                [
                    "-f", "-e", "trace=rename,renameat,renameat2", "-o", trace, ProjectPaths.binary,
                    "--data-dir", lib.dataDir,
                ] + command + ["-q"])
            #expect(result.status == 0, "\(result.stderr)")
            let renames = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter { $0.contains("library-backup.json\"") }
            #expect(renames.count <= 1, "\(command): \(renames.count) rewrites of the backup for 10 alarms")
        }
        // A change that reaches every alarm still leaves a backup that holds it, written once.
        let trace = lib.dir.file("trace")
        _ = try await ProcessRunner.run(
            "/usr/bin/strace",
            [
                "-f", "-e", "trace=rename,renameat,renameat2", "-o", trace, ProjectPaths.binary,
                "--data-dir", lib.dataDir, "settings", "gap", "0.5", "-q",
            ])
        let renames = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter { $0.contains("library-backup.json\"") }
        #expect(renames.count == 1, "\(renames.count) rewrites for one settings change")
        let backup = try String(contentsOfFile: "\(lib.dataDir)/library-backup.json", encoding: .utf8)
        #expect(backup.contains("\"gap\":\"0.5\""), "\(backup.prefix(300))")
    }
}
