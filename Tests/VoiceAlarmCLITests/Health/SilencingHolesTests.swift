import Foundation
import TestSupport
import Testing

@Suite("Nothing a clock, a typo or root can do silences an alarm", .timeLimit(.minutes(3)))
struct SilencingHolesTests {
    @Test("File times past 2262 (or before 1677) trap nothing: every command works, and the daemon rings the voice at its minute")
    func farFileTimes() async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm(at: "07:00")
        let voice = "\(lib.dataDir)/Sounds/\(id).m4a"
        let clips = try FileManager.default.contentsOfDirectory(atPath: "\(lib.dataDir)/clips").map { "\(lib.dataDir)/clips/\($0)" }
        for (index, path) in ([voice, "\(lib.dataDir)/voicealarm.sqlite", "\(lib.dataDir)/Sounds"] + clips).enumerated() {
            try await ProcessRunner.mustRun("/usr/bin/touch", ["-h", "-d", index % 2 == 0 ? "2300-01-01" : "1600-01-01", path])
        }
        let manifest = lib.dir.file("m.json")
        try #"{"ringtones": [{"id": "a", "clips": ["\#(ProjectPaths.sampleAudio)/calm.wav"]}]}"#.write(toFile: manifest, atomically: true, encoding: .utf8)
        try await ProcessRunner.mustRun("/usr/bin/touch", ["-d", "2300-01-01", manifest])
        for arguments in [
            ["alarm", "list"], ["doctor"], ["repair"], ["build", "--all"], ["reconcile"], ["show", id], ["scheduler", "list"],
            ["ring", id, "--max-seconds", "1", "--sound", voice], ["batch", manifest, "--out", lib.dir.file("out")],
        ] {
            let result = try await lib.run(arguments + ["-q"])
            #expect(!trapped(result), "\(arguments): \(result.status) \(result.stderr.prefix(300))")
            #expect(result.status == 0 || (arguments == ["doctor"] && result.status == 1), "\(arguments): \(result.stderr)")
        }
        await #expect(try lib.ok(["alarm", "list", "--json", "-q"]).contains("\"sound\" : \"\(id).m4a\""), "still on its voice")
        try await ProcessRunner.mustRun("/usr/bin/touch", ["-d", "2300-01-01", voice])
        try await ringsVoiceAtSeven(lib, id, voice: voice)
    }

    @Test("A scheduler switch that fails leaves every alarm in the old backend, the old choice remembered, and the alarm rings at its minute")
    func failedSwitch() async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm(at: "07:00")
        try Data().write(to: URL(fileURLWithPath: lib.dir.file("a-file")))
        let failed = try await lib.run(["--unit-dir", lib.dir.file("a-file/units"), "--scheduler", "systemd", "alarm", "list"])
        #expect(failed.status == 1 && failed.stderr.hasPrefix("error: ") && failed.stderr.contains("Not a directory"), "\(failed.stderr)")
        await #expect(try scheduledSounds(lib) == [id: "\(id).m4a"], "the embedded scheduler still holds the alarm")
        let doctor = try await lib.run(["doctor", "--json"])
        #expect(doctor.stdout.contains("\"scheduler\" : \"embedded\""), "\(doctor.stdout)")
        try await ringsVoiceAtSeven(lib, id, voice: "\(lib.dataDir)/Sounds/\(id).m4a")
        // The failed switch's unit dir is not remembered either: a switch without one uses the default.
        let config = lib.dir.file("config")
        let again = try await lib.run(["--scheduler", "systemd", "scheduler", "list", "-q"], environment: ["XDG_CONFIG_HOME": config])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(FileManager.default.fileExists(atPath: "\(config)/systemd/user/voicealarm-\(id).timer"))
    }

    @Test("doctor compares the library with its scheduler: an alarm the scheduler lost, or a voice file it names that is gone")
    func doctorSeesDrift() async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm(at: "07:00")
        try FileManager.default.removeItem(atPath: "\(lib.dataDir)/embedded-scheduler.sqlite")
        let lost = try await lib.run(["doctor", "-q"])
        #expect(lost.status == 1 && lost.stderr.contains("alarm \(id) is not held by the scheduler: nothing will ring it"), "\(lost.stderr)")
        #expect(lost.stderr.split(separator: "\n").last?.hasPrefix("error: doctor: ") == true, "-q doctor ends on one error line: \(lost.stderr)")
        _ = try await lib.ok(["reconcile", "-q"])
        try FileManager.default.removeItem(atPath: "\(lib.dataDir)/Sounds/\(id).m4a")
        let gone = try await lib.run(["doctor", "-q"])
        #expect(gone.status == 1 && gone.stderr.contains("names voice file \(id).m4a for \(id), which is not there"), "\(gone.stderr)")

        // A row edited into no alarm (neither weekly nor dated) is reported, and its scheduled ring is kept, not cancelled.
        _ = try await lib.ok(["reconcile", "-q"])
        let edit = "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('UPDATE alarms SET days = 128, date = NULL'); c.commit()"
        try await ProcessRunner.mustRun("/usr/bin/python3", ["-c", edit, "\(lib.dataDir)/voicealarm.sqlite"])
        let reconciled = try await lib.run(["reconcile", "--json", "-q"])
        #expect(reconciled.status == 0 && !reconciled.stdout.contains(id), "\(reconciled.stdout)\(reconciled.stderr)")
        await #expect(try scheduledSounds(lib)[id] != nil, "the scheduler still holds the alarm whose row cannot be read")
        let damaged = try await lib.run(["doctor", "-q"])
        #expect(damaged.status == 1 && damaged.stderr.contains("an alarm's record cannot be read (\(id))"), "\(damaged.stderr)")
    }

    @Test("--sounds-dir is taken on only by a command that succeeds, moves the voice files, and refuses a path with a newline")
    func soundsDirectory() async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm(at: "07:00")
        let elsewhere = lib.dir.file("elsewhere")
        let failing = try await lib.run(["--sounds-dir", elsewhere, "playlist", "show", "nosuch"])
        #expect(failing.status == 1)
        #expect(!FileManager.default.fileExists(atPath: elsewhere), "a failed command makes no folder")
        await #expect(try lib.ok(["settings", "--json", "-q"]).contains("\"soundsDir\" : \"\(lib.dataDir)/Sounds\""), "not remembered after a failure")
        #expect(FileManager.default.fileExists(atPath: "\(lib.dataDir)/Sounds/\(id).m4a"))

        let newline = try await lib.run(["--sounds-dir", lib.dir.file("x\ny"), "alarm", "list"])
        #expect(newline.status == 64 && newline.stderr.hasPrefix("error: --sounds-dir: control characters"), "\(newline.stderr)")
        #expect(newline.stderr.split(separator: "\n").count == 2)

        let same = try await lib.run(["--sounds-dir", "\(lib.dataDir)//Sounds/", "clip", "list"])
        #expect(
            same.status == 0 && FileManager.default.fileExists(atPath: "\(lib.dataDir)/Sounds/\(id).m4a"),
            "the folder in use, spelled otherwise, is no switch: \(same.stderr)")
        // (Bounded: a daemon that took the option would run until stopped.)
        let daemon = try await ProcessRunner.run(
            "/usr/bin/timeout", ["20", ProjectPaths.binary, "--data-dir", lib.dataDir, "--sounds-dir", elsewhere, "daemon"],
            environment: lib.devices.environment)
        #expect(daemon.status == 64 && daemon.stderr.hasPrefix("error: --sounds-dir: the daemon does not move"), "\(daemon.stderr)")
        #expect(FileManager.default.fileExists(atPath: "\(lib.dataDir)/Sounds/\(id).m4a"))

        let moved = try await lib.run(["--sounds-dir", elsewhere, "clip", "list"])
        #expect(moved.status == 0, "\(moved.stderr)")
        await #expect(try lib.ok(["settings", "--json", "-q"]).contains("\"soundsDir\" : \"\(elsewhere)\""))
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere) == ["\(id).m4a"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(lib.dataDir)/Sounds").isEmpty, "the old copies go once the new ones are in use")
        await #expect(try lib.ok(["alarm", "list", "--json", "-q"]).contains("\"sound\" : \"\(id).m4a\""))
        let ring = try await lib.run(["ring", id, "--max-seconds", "1", "-q"])
        #expect(ring.status == 0 && ring.stdout == "\(id).m4a\n", "\(ring.stderr)")
        let units = lib.dir.file("units")
        _ = try await lib.ok(["--scheduler", "systemd", "--unit-dir", units, "reconcile", "-q"])
        let service = try String(contentsOfFile: "\(units)/voicealarm-\(id).service", encoding: .utf8)
        #expect(service.contains("\(elsewhere)/\(id).m4a"), "the unit names the file where it is: \(service)")
    }

    @Test(
        "Job-engine variables out of range are a usage error, never a trap",
        arguments: [
            ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "100001"],
            ["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_COUNT": "9223372036854775807"],
            ["SLURM_ARRAY_TASK_ID": "9223372036854775807", "SLURM_ARRAY_TASK_COUNT": "2"],
            ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_STEP": "0", "SLURM_ARRAY_TASK_COUNT": "2"],
            ["JOB_COMPLETION_INDEX": "-1"], ["AWS_BATCH_JOB_ARRAY_INDEX": "99999999999999999999"],
        ])
    func engineVariables(_ variables: [String: String]) async throws {
        let dir = TemporaryDirectory("engine")
        let manifest = dir.file("m.json")
        try #"{"ringtones": [{"id": "a", "clips": ["\#(ProjectPaths.sampleAudio)/calm.wav"]}]}"#.write(toFile: manifest, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment.merge(variables) { $1 }
        let result = try await ProcessRunner.run(
            ProjectPaths.binary,
            ["batch", manifest, "--out", dir.file("out"), "--shards", "2"].filter {
                variables["SLURM_ARRAY_TASK_COUNT"] == nil || ($0 != "--shards" && $0 != "2")
            }, environment: environment)
        #expect(!trapped(result) && result.status == 64, "\(variables): \(result.status) \(result.stderr.prefix(300))")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("error: ") && lines[1] == "see 'voicealarm batch --help'", "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("out/a.m4a")))
    }

    @Test(
        "A settings format change killed at any point leaves the scheduler naming files that exist; a ring from a damaged library plays the voice at its minute"
    )
    func killedFormatChange() async throws {
        let lib = try RingLibrary()
        let first = try await lib.alarm(at: "07:00")
        var ids = [first]
        for minute in ["08:00", "09:00", "10:00", "11:00"] {
            await ids.append(try lib.ok(["alarm", "add", "manifesto", "--at", minute, "--days", "mon", "-q"]))
        }
        let sounds = "\(lib.dataDir)/Sounds"
        // Killed after one, three and all five files of a new format are written: in the builds, and in the scheduler steps.
        for (format, killAfter) in [("caf", 1), ("wav", 3), ("aiff", 5)] {
            let change = Process()
            change.executableURL = URL(fileURLWithPath: ProjectPaths.binary)
            change.arguments = ["--data-dir", lib.dataDir, "-q", "settings", "format", format]
            change.environment = lib.devices.environment
            change.standardOutput = FileHandle.nullDevice
            change.standardError = FileHandle.nullDevice
            try change.run()
            let deadline = Date().addingTimeInterval(60)
            while change.isRunning, Date() < deadline {
                let written = ((try? FileManager.default.contentsOfDirectory(atPath: sounds)) ?? []).filter { $0.hasSuffix(".\(format)") }
                if written.count >= killAfter { break }
                await pause(0.002)
            }
            kill(change.processIdentifier, SIGKILL)
            await change.ended()
            for (id, file) in try await scheduledSounds(lib) {
                guard let file else { continue }
                #expect(FileManager.default.fileExists(atPath: "\(sounds)/\(file)"), "killed after \(killAfter) \(format) files: \(id) names \(file)")
            }
        }
        // The library is then unreadable: the daemon rings from what the scheduler named.
        let named = try await #require(try scheduledSounds(lib)[first] ?? nil)
        try Data(repeating: 0, count: 4096).write(to: URL(fileURLWithPath: "\(lib.dataDir)/voicealarm.sqlite"))
        try await ringsVoiceAtSeven(lib, first, voice: "\(sounds)/\(named)")
    }

    @Test("Control characters a person typed are echoed escaped: no forged line on the terminal or in the event log")
    func controlCharacters() async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm(at: "07:00")
        let forged = try await lib.run(["playlist", "show", "x\nwarning: all alarms deleted"])
        #expect(forged.status == 1 && forged.stderr.split(separator: "\n").count == 1 && forged.stderr.contains("x\\u{A}warning"), "\(forged.stderr)")
        for arguments in [
            ["--bogus\u{1B}[31m\u{07}", "alarm", "list"], ["alarm", "remove", "abc\u{07}\r\u{1B}[2J12345678"], ["voice", "off", "\u{1B}]0;x\u{07}"],
        ] {
            let result = try await lib.run(arguments)
            #expect(result.status != 0)
            #expect(
                !result.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F }, "\(arguments): \(result.stderr.debugDescription)")
        }
        let before = ((try? String(contentsOfFile: "\(lib.dataDir)/events.log", encoding: .utf8)) ?? "").split(separator: "\n").count
        _ = try await lib.run(["ring", id, "--device", "nodev\n2099-01-01T07:00:00Z ringing alarm forged", "--max-seconds", "1", "-q"])
        let log = try String(contentsOfFile: "\(lib.dataDir)/events.log", encoding: .utf8).split(separator: "\n")
        #expect(!log.contains { $0.hasPrefix("2099") }, "\(log)")
        #expect(log.dropFirst(before).allSatisfy { $0.range(of: #"^\d{4}-\d\d-\d\dT"#, options: .regularExpression) != nil }, "\(log)")
    }

    @Test("help --json is JSON; service status says error: when it fails")
    func smallerHoles() async throws {
        for arguments in [["help", "--json"], ["help", "alarm", "add", "--json"], ["alarm", "--help", "--json"], ["ring", "--help", "--json"]] {
            let result = try await voicealarm(arguments)
            #expect(result.status == 0)
            let document = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
            #expect(document?["usage"] is String && document?["globalOptions"] is [Any], "\(arguments): \(result.stdout.prefix(200))")
        }
        let lib = try RingLibrary()
        let status = try await lib.run(["service", "status"])
        #expect(status.status == 1 && status.stderr.hasPrefix("error: "), "\(status.stderr)")
    }
}
