import Foundation
import TestSupport
import Testing

/// `date -u -d "2027-01-04 06:50" +%s`: Monday 06:50 UTC.
private let monday0650 = 1799045400.0

@Suite("The scheduler through the binary")
struct SchedulerCommandTests {
    @Test(
        "The daemon's clock: as root alarms can wake the machine; as a user without CAP_WAKE_ALARM doctor says why, and the daemon still rings on time, even started where it may not enter",
        .timeLimit(.minutes(1)))
    func wakeClock() async throws {
        let folder = TemporaryDirectory("wake")
        let root =
            try JSONSerialization.jsonObject(
                with: try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", folder.file("d"), "doctor", "--json"]).stdoutData)
            as? [String: Any]
        withExtendedLifetime(folder) {}  // removed after doctor made its library in it, not before
        let rootWake = try #require(root?["wake"] as? [String: Any])
        #expect(rootWake["clock"] as? String == "CLOCK_REALTIME_ALARM" && rootWake["canWake"] as? Bool == true, "\(rootWake)")

        let lib = try RingLibrary()
        let id = try await lib.alarm(at: "07:00")
        let (user, binary) = try await unprivileged(lib)
        let doctor = try await runAs(
            user, in: lib.dir.path, binary, ["--data-dir", lib.dataDir, "doctor", "--json"],
            environment: lib.devices.environment)
        let wake = try #require((try JSONSerialization.jsonObject(with: doctor.stdoutData) as? [String: Any])?["wake"] as? [String: Any], "\(doctor.stderr)")
        #expect(wake["clock"] as? String == "CLOCK_REALTIME" && wake["canWake"] as? Bool == false)
        #expect((wake["reason"] as? String)?.contains("setcap cap_wake_alarm+ep \(binary)") == true, "\(wake)")

        // Started from a folder it may not enter (`sudo -u alice voicealarm daemon` from root's
        // home): its rings start elsewhere, and ring.
        let closed = TemporaryDirectory("closed")
        chmod(closed.path, 0o700)
        let daemon = try FakeTimeDaemon(lib, fakeStart: "2027-01-04 06:59:55", user: user, binary: binary, directory: closed.path)
        #expect(await daemon.waitForEvent("stopped alarm \(id)"))
        let (status, stderr) = await daemon.stop()
        #expect(status == 0, "\(stderr)")
        #expect(stderr.contains("cannot wake this machine from suspend"), "\(stderr)")
        let log = try String(contentsOfFile: "\(lib.dataDir)/events.log", encoding: .utf8)
        #expect(log.contains("2027-01-04T07:00:0"), "rang on time: \(log)")
    }

    /// Sets the host's wall clock (`date -s`, to the time it already is): only as root, and only
    /// when asked for with `VOICEALARM_TEST_CLOCK_STEP=1` (`make test-full` sets it), never in a
    /// plain `make test` on someone's workstation.
    @Test(
        "A clock step while the daemon sleeps is noticed within a second", .timeLimit(.minutes(1)),
        .enabled(
            if: ProcessInfo.processInfo.environment["VOICEALARM_TEST_CLOCK_STEP"] == "1",
            "sets the machine's clock: opt in with VOICEALARM_TEST_CLOCK_STEP=1 (make test-full)"),
        .enabled(if: geteuid() == 0, "sets the machine's clock: needs root"))
    func clockStep() async throws {
        let lib = try RingLibrary()
        _ = try await lib.alarm(at: "07:00")
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: ProjectPaths.binary)
        daemon.arguments = ["--data-dir", lib.dataDir, "-q", "daemon", "--poll-seconds", "600"]
        daemon.environment = lib.devices.environment
        daemon.standardError = FileHandle.nullDevice
        daemon.standardOutput = FileHandle.nullDevice
        try daemon.run()
        try await daemon.killed {
            let look = "\(lib.dataDir)/daemon-last-look"
            for _ in 0..<100 where !FileManager.default.fileExists(atPath: look) { await pause(0.1) }
            await pause(0.5)
            let before = try String(contentsOfFile: look, encoding: .utf8)
            // Set the wall clock to what it already is: a step of a few microseconds, still a clock change.
            try await ProcessRunner.mustRun("/bin/bash", ["-c", "date -s @$(date +%s.%N) >/dev/null"])
            let stepped = Date()
            var noticed = false
            while Date().timeIntervalSince(stepped) < 1, !noticed {
                noticed = (try? String(contentsOfFile: look, encoding: .utf8)) != before
                await pause(0.02)
            }
            #expect(noticed, "the daemon looked again within a second of the step (it sleeps for 600 s otherwise)")
        }
    }

    @Test(
        "Stopping the daemon stops the rings it started, on the remembered device; a ring's stdout stays out of the daemon's",
        .timeLimit(.minutes(1)))
    func daemonOwnsItsRings() async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm(at: "07:00")
        _ = try await lib.ok(["settings", "device", "speaker", "-q"])
        let out = Pipe()
        let daemon = try FakeTimeDaemon(lib, fakeStart: "2027-01-04 06:59:55", maxRing: 300, stdout: out)
        #expect(await daemon.waitForEvent("ringing alarm \(id)"))
        let started = Date()
        let (status, stderr) = await daemon.stop()
        #expect(status == 0, "\(stderr)")
        #expect(await daemon.waitForEvent("stopped alarm \(id)", seconds: 10), "the ring was stopped with the daemon")
        #expect(Date().timeIntervalSince(started) < 20)
        let log = try String(contentsOfFile: "\(lib.dataDir)/events.log", encoding: .utf8)
        #expect(log.contains("on 'speaker'"), "the remembered device: \(log)")
        // This library's rings only (the daemon starts `voicealarm --data-dir D ring ID`): another
        // test's library may hold an alarm of the same id, copied from the same template.
        #expect(
            try await ProcessRunner.run("/usr/bin/pgrep", ["-f", "--", "--data-dir \(lib.dataDir) ring \(id)"]).stdout.isEmpty, "no ring outlives the daemon")
        #expect(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).isEmpty, "the ring's result line is not the daemon's output")
    }

    @Test("A damaged library: the daemon starts degraded, says so, and rings the voice the scheduler named", .timeLimit(.minutes(1)))
    func daemonDegraded() async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm(at: "07:00")
        try Data().write(to: URL(fileURLWithPath: "\(lib.dataDir)/voicealarm.sqlite"))
        let daemon = try FakeTimeDaemon(lib, fakeStart: "2027-01-04 06:59:52")
        #expect(await daemon.waitForEvent("stopped alarm \(id)"))
        let played = try await IndependentMeasure.decodedSamples(lib.devices.played)  // before doctor opens the device again
        let doctor = try await lib.run(["doctor"])
        #expect(doctor.status == 1)
        #expect(doctor.stdout.contains("library: cannot be opened") && doctor.stderr.contains("the daemon runs degraded"), "\(doctor.stdout)\(doctor.stderr)")
        let (status, stderr) = await daemon.stop()
        #expect(status == 0, "\(stderr)")
        #expect(stderr.contains("the daemon runs degraded") && stderr.contains("voicealarm repair"), "\(stderr)")
        let log = try String(contentsOfFile: "\(lib.dataDir)/events.log", encoding: .utf8)
        #expect(log.contains("daemon started degraded") && log.contains("the library cannot be read"), "\(log)")
        let ringtone = try await IndependentMeasure.decodedSamples("\(lib.dataDir)/Sounds/\(id).m4a")
        #expect(correlation(Array(played.prefix(ringtone.count)), Array(ringtone.prefix(played.count))) > 0.999, "the voice, not the default tone")
    }

    @Test("The real daemon, on a fake clock: an alarm added while it runs rings on time", .timeLimit(.minutes(1)))
    func daemonRingsOnTime() async throws {
        let lib = try RingLibrary()
        let clip = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        _ = try await lib.ok(["manifesto", "set", clip, "-q"])
        let daemon = try FakeTimeDaemon(lib, fakeStart: "2027-01-04 06:59:52")
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: "\(lib.dataDir)/daemon-last-look") { await pause(0.1) }
        let id = try await lib.ok(["alarm", "add", "manifesto", "--at", "07:00", "--days", "mon", "-q"])
        #expect(await daemon.waitForEvent("stopped alarm \(id)"))
        let (status, stderr) = await daemon.stop()
        #expect(status == 0, "\(stderr)")
        #expect(stderr.contains("Ringing alarm \(id) (due 2027-01-04T07:00:00+00:00)"))
        #expect(stderr.contains("The daemon stopped."))
        let log = try String(contentsOfFile: "\(lib.dataDir)/events.log", encoding: .utf8)
        #expect(log.contains("2027-01-04T07:00:0"), "rang within the minute: \(log)")
        let played = try await IndependentMeasure.decodedSamples(lib.devices.played)
        let ringtone = try await IndependentMeasure.decodedSamples("\(lib.dataDir)/Sounds/\(id).m4a")
        #expect(played.count == 2 * 44_100)
        #expect(correlation(played, Array(ringtone.prefix(played.count))) > 0.999)
    }

    @Test(
        "Restarted after being down: 5 minutes late rings, 15 minutes late is logged as missed", .timeLimit(.minutes(1)),
        arguments: [("2027-01-04 07:05:00", true), ("2027-01-04 07:15:00", false)])
    func daemonDown(_ restart: String, _ rings: Bool) async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm(at: "07:00")
        try String(monday0650).write(toFile: "\(lib.dataDir)/daemon-last-look", atomically: true, encoding: .utf8)
        let daemon = try FakeTimeDaemon(lib, fakeStart: restart)
        #expect(await daemon.waitForEvent(rings ? "stopped alarm \(id)" : "missed alarm \(id)"))
        let (status, _) = await daemon.stop()
        #expect(status == 0)
        #expect(FileManager.default.fileExists(atPath: lib.devices.played) == rings)
    }

    @Test("Switching the scheduler moves every alarm: units written and verified, the old list emptied; and back")
    func switching() async throws {
        let lib = try RingLibrary()
        let first = try await lib.alarm(at: "07:00")
        let second = try await lib.ok(["alarm", "add", "manifesto", "--at", "08:00", "--days", "sat", "-q"])
        let units = lib.dir.file("units")
        let toSystemd = try await lib.run(["--scheduler", "systemd", "--unit-dir", units, "scheduler", "list", "--json"])
        #expect(toSystemd.status == 0, "\(toSystemd.stderr)")
        #expect(toSystemd.stderr.contains("Switched from the embedded scheduler to systemd: cancelled 2 there, scheduled 2 here."))
        let held = try JSONSerialization.jsonObject(with: toSystemd.stdoutData) as? [[String: Any]]
        #expect(Set(held?.compactMap { $0["id"] as? String } ?? []) == [first, second])
        let files = try FileManager.default.contentsOfDirectory(atPath: units).sorted()
        #expect(files.count == 4)
        let verify = try await ProcessRunner.run("/usr/bin/systemd-analyze", ["verify"] + files.map { "\(units)/\($0)" })
        #expect(verify.status == 0, "\(verify.stderr)")
        // Remembered: the next command, and reconcile, use systemd without being told.
        await #expect(try lib.ok(["reconcile", "--json"]).contains("\"scheduled\" : []"))
        let warning = try await lib.run(["alarm", "add", "manifesto", "--at", "09:00", "--days", "sun"])
        #expect(warning.stderr.contains("no systemd user manager is running"))

        let back = try await lib.run(["--scheduler", "embedded", "scheduler", "list", "--json"])
        #expect(back.stderr.contains("Switched from the systemd scheduler to embedded: cancelled 3 there, scheduled 3 here."))
        #expect(try FileManager.default.contentsOfDirectory(atPath: units).isEmpty)
        let embedded = try await lib.run(["alarm", "add", "manifesto", "--at", "10:00", "--days", "sun"])
        #expect(embedded.stderr.contains("no 'voicealarm daemon' is running"))
        await #expect(try lib.run(["--scheduler", "cron", "scheduler", "list"]).status == 64)
    }

    @Test("reconcile reports what it repaired, as JSON, and nothing the second time")
    func reconcile() async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm()
        let units = lib.dir.file("units")
        _ = try await lib.ok(["--scheduler", "systemd", "--unit-dir", units, "scheduler", "list", "-q"])
        try FileManager.default.removeItem(atPath: "\(units)/voicealarm-\(id).timer")
        let stray = UUID().uuidString.lowercased()
        try "[Timer]\nOnCalendar=daily\n".write(toFile: "\(units)/voicealarm-\(stray).timer", atomically: true, encoding: .utf8)
        let first = try await JSONSerialization.jsonObject(with: Data(lib.ok(["reconcile", "--json"]).utf8)) as? [String: [String]]
        #expect(first == ["scheduled": [id], "updated": [], "cancelled": [stray]])
        let second = try await JSONSerialization.jsonObject(with: Data(lib.ok(["reconcile", "--json"]).utf8)) as? [String: [String]]
        #expect(second == ["scheduled": [], "updated": [], "cancelled": []])
    }

    @Test("doctor says what stops the alarms from ringing, and exits 1 while something does")
    func doctor() async throws {
        let lib = try RingLibrary()
        _ = try await lib.alarm()
        let result = try await lib.run(["doctor"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("scheduler: embedded"))
        #expect(result.stdout.contains("default tone: \(lib.dataDir)/default-tone.caf"))
        #expect(result.stdout.contains("sound device 'default': opens"))
        #expect(result.stderr.contains("warning: no 'voicealarm daemon' is running"))
    }

    @Test("An alarm id that does not exist is refused by ring; listen says it names nothing it knows")
    func unknownAlarm() async throws {
        let lib = try RingLibrary()
        let ring = try await lib.run(["ring", "0123abcd"])
        #expect(ring.status == 1)
        #expect(ring.stderr == "error: 0123abcd: no such alarm (see 'voicealarm alarm list')\n")
        let listen = try await lib.run(["listen", "0123abcd"])
        #expect(listen.status == 1)
        #expect(listen.stderr == "error: 0123abcd: no playlist, clip or alarm by this name or id (see 'voicealarm playlist list', 'clip list', 'alarm list')\n")
    }
}

@Suite("A failing scheduler never loses a library record")
struct SchedulerFailureTests {
    @Test("With an unwritable unit folder the alarm is still added, with a warning; reconcile repairs it later")
    func unwritableUnitDir() async throws {
        let lib = try RingLibrary()
        let units = lib.dir.file("units")
        _ = try await lib.ok(["--scheduler", "systemd", "--unit-dir", units, "scheduler", "list", "-q"])
        _ = try await lib.ok(["--unit-dir", "/proc/voicealarm-units", "settings", "-q"])
        let clip = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        _ = try await lib.ok(["manifesto", "set", clip, "-q"])
        let added = try await lib.run(["alarm", "add", "manifesto", "--at", "07:00", "--days", "mon"])
        #expect(added.status == 0)
        let id = added.stdout.trimmingCharacters(in: .newlines)
        #expect(added.stderr.contains("warning: alarm \(id) could not be scheduled"))
        await #expect(try lib.ok(["alarm", "list"]).contains(id.prefix(8)))
        let repaired = try await JSONSerialization.jsonObject(with: Data(lib.ok(["--unit-dir", units, "reconcile", "--json"]).utf8)) as? [String: [String]]
        #expect(repaired?["scheduled"] == [id])
        #expect(FileManager.default.fileExists(atPath: "\(units)/voicealarm-\(id).timer"))
    }
}
