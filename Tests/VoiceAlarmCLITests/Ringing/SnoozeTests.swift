import Foundation
import TestSupport
import Testing

/// A `voicealarm` process in the background (a ring, a daemon), under libfaketime when asked.
private final class Background {
    let process = Process()

    init(_ lib: RingLibrary, _ arguments: [String], fakeTime: String? = nil) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Processes started by the test run inherit ignored SIGTERM/SIGINT: give them back. env
        // then execs voicealarm itself (libfaketime preloaded, not its wrapper, which would
        // leave the real process running when killed).
        process.arguments = ["--default-signal=INT,TERM", ProjectPaths.binary, "--data-dir", lib.dataDir] + arguments
        var environment = lib.devices.environment
        environment["TZ"] = "UTC"
        if let fakeTime {
            environment["LD_PRELOAD"] = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
            environment["FAKETIME"] = fakeTime
        }
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    var isRunning: Bool { process.isRunning }

    /// SIGKILL; the process ends at once and Foundation reaps it (a deinit cannot wait).
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }

    deinit { kill() }
}

private func events(_ lib: RingLibrary) -> String {
    (try? String(contentsOfFile: "\(lib.dataDir)/events.log", encoding: .utf8)) ?? ""
}

/// Waits until `condition` holds, at most `seconds`.
private func waitUntil(_ seconds: Double, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        await pause(0.1)
    }
    return condition()
}

private func ringing(_ lib: RingLibrary) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "\(lib.dataDir)/ringing")) ?? []).filter { $0.hasSuffix(".pid") }
}

private func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

/// The id a snoozed ring of `alarm` is scheduled under: every bit flipped.
private func snoozeID(_ alarm: String) -> String {
    let uuid = UUID(uuidString: alarm)!
    var bytes = uuid.uuid
    withUnsafeMutableBytes(of: &bytes) { for i in $0.indices { $0[i] = ~$0[i] } }
    return UUID(uuid: bytes).uuidString.lowercased()
}

@Suite("Opt-in snooze through the binary", .serialized)
struct SnoozeTests {
    /// A library whose manifesto alarm rings Mondays at 07:00 with `snooze` minutes of snooze.
    private func library(snooze: Int?, extra: [String] = []) async throws -> (RingLibrary, String) {
        let lib = try RingLibrary()
        let clip = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        _ = try await lib.ok(extra + ["manifesto", "set", clip, "-q"])
        let alarm = try await lib.ok(
            extra + ["alarm", "add", "manifesto", "--at", "07:00", "--days", "mon", "-q"] + (snooze.map { ["--snooze", "\($0)"] } ?? []))
        return (lib, alarm)
    }

    @Test("--snooze outside 1 to 30 minutes is refused, and nothing is added", arguments: ["0", "31", "5.5", "x", "-1"])
    func badMinutes(_ value: String) async throws {
        let lib = try RingLibrary()
        let result = try await lib.run(["alarm", "add", "manifesto", "--at", "07:00", "--snooze", value])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("error: --snooze: '\(value)' is not a whole number of minutes from 1 to 30"))
        await #expect(try lib.ok(["alarm", "list", "--json"]) == "[]")
    }

    @Test("snooze with nothing ringing, or on an alarm without snooze, is refused and the ring goes on")
    func refused() async throws {
        let (lib, alarm) = try await library(snooze: nil)
        let nothing = try await lib.run(["snooze"])
        #expect(nothing.status == 1)
        #expect(nothing.stderr == "error: nothing of ours is ringing\n")
        let reader = PacedReader(lib.devices.fifo)
        defer { withExtendedLifetime(reader) {} }  // it reads for the whole test
        let ring = try Background(lib, ["ring", alarm, "--device", "slow", "--max-seconds", "60"])
        await #expect(waitUntil(20) { !ringing(lib).isEmpty })
        let refused = try await lib.run(["snooze", "--json"])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("error: alarm \(alarm) has no snooze: it rings until stopped"))
        #expect(refused.stdout.contains("\"code\" : 1"))
        await pause(0.5)
        #expect(ring.isRunning, "the ring goes on")
        await #expect(try lib.ok(["stop"]) == alarm)
        await #expect(waitUntil(10) { !ring.isRunning })
    }

    @Test("ring → snooze → the ring stops and is scheduled again; the snoozed ring rings the voice; 3 in a row at most; stop cancels")
    func chain() async throws {
        let (lib, alarm) = try await library(snooze: 1)
        let reader = PacedReader(lib.devices.fifo)
        defer { withExtendedLifetime(reader) {} }  // it reads for the whole test
        let snoozed = snoozeID(alarm)
        var ringID = alarm
        for count in 1...3 {
            // The scheduler starts the ring (the alarm, then its snoozed ring a minute later on the faked clock).
            let offset = "+\((count - 1) * 70)s"
            let ring = try Background(lib, ["ring", ringID, "--device", "slow", "--max-seconds", "60"] + (count > 1 ? ["--scheduled"] : []), fakeTime: offset)
            await #expect(waitUntil(20) { ringing(lib).contains("\(ringID).pid") }, "ring \(count) started")
            let before = Date().addingTimeInterval(Double((count - 1) * 70))
            let result = try await ProcessRunner.run(
                FakeClock.wrapper, ["-f", offset, ProjectPaths.binary, "--data-dir", lib.dataDir, "snooze", "--json"],
                environment: lib.devices.environment)
            #expect(result.status == 0, "\(result.stderr)")
            let snooze = try #require((try json(result.stdout) as? [[String: Any]])?.first)
            #expect(snooze["alarm"] as? String == alarm)
            #expect(snooze["count"] as? Int == count)
            #expect(snooze["left"] as? Int == 3 - count)
            let ringAt = try #require(ISO8601DateFormatter().date(from: snooze["ringAt"] as! String))
            let wait = ringAt.timeIntervalSince(before)
            #expect(wait >= 55 && wait <= 125, "a minute later, at a whole minute: \(ringAt) after \(before)")
            #expect(ringAt.timeIntervalSince1970.truncatingRemainder(dividingBy: 60) == 0)
            await #expect(waitUntil(10) { !ring.isRunning }, "the ring stops")
            // The scheduler holds the snoozed ring, once, at that minute; alarm list shows it.
            let held = try await #require(try json(lib.ok(["scheduler", "list", "--json"])) as? [[String: Any]])
            #expect(held.contains { $0["id"] as? String == snoozed && ($0["schedule"] as? String)?.hasPrefix("at ") == true })
            let listed = try await #require((try json(lib.ok(["alarm", "list", "--json"])) as? [[String: Any]])?.first)
            #expect(listed["snoozedUntil"] as? String != nil)
            ringID = snoozed
        }
        // The snoozed ring rings the alarm's voice file (what the daemon would start at its minute).
        let played = try await ProcessRunner.run(
            FakeClock.wrapper,
            [
                "-f", "+\(2 * 70 + 65)s", ProjectPaths.binary, "--data-dir", lib.dataDir,
                "ring", snoozed, "--scheduled", "--device", "speaker", "--max-seconds", "1",
            ],
            environment: lib.devices.environment)
        #expect(played.status == 0, "\(played.stderr)")
        #expect(played.stdout == "\(alarm).m4a\n")
        #expect(events(lib).contains("snoozed 3×"))
        let voice = try await IndependentMeasure.decodedSamples("\(lib.dataDir)/Sounds/\(alarm).m4a")
        #expect(await correlation(Array(try IndependentMeasure.decodedSamples(lib.devices.speaker).prefix(voice.count)), voice) > 0.99)

        // A fourth snooze in a row is refused: the ring goes on until stopped.
        let fourth = try Background(lib, ["ring", snoozed, "--device", "slow", "--max-seconds", "60"])
        await #expect(waitUntil(20) { ringing(lib).contains("\(snoozed).pid") })
        let refused = try await lib.run(["snooze"])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("error: alarm \(alarm) has been snoozed 3 times in a row, the most"))
        await pause(0.5)
        #expect(fourth.isRunning)
        // stop ends the ring and the pending snooze.
        let stopped = try await #require(try json(lib.ok(["stop", "--json"])) as? [String: [String]])
        #expect(stopped["stopped"] == [snoozed])
        #expect(stopped["snoozesCancelled"] == [alarm])
        await #expect(waitUntil(10) { !fourth.isRunning })
        await #expect(try !lib.ok(["scheduler", "list"]).contains(snoozed))
        let after = try await #require((try json(lib.ok(["alarm", "list", "--json"])) as? [[String: Any]])?.first)
        #expect(after["snoozedUntil"] is NSNull)
        let late = try await lib.run(["ring", snoozed, "--scheduled", "--device", "speaker", "--max-seconds", "1"])
        #expect(late.status == 1)
        #expect(late.stderr.contains("no snooze of this alarm is pending"))
    }

    @Test("A snooze never lands in another alarm's minute: it rings a minute later")
    func sameMinute() async throws {
        let (lib, alarm) = try await library(snooze: 5)
        // Monday 2027-01-04: the snoozed alarm rings at 07:00; another at 07:06, just when its snooze would end.
        let clip = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/kind.ogg", "-q"])
        _ = try await lib.ok(["playlist", "create", "other", clip, "-q"])
        _ = try await lib.ok(["alarm", "add", "other", "--at", "07:06", "--days", "mon", "-q"])
        let reader = PacedReader(lib.devices.fifo)
        defer { withExtendedLifetime(reader) {} }  // it reads for the whole test
        let ring = try Background(lib, ["ring", alarm, "--device", "slow", "--max-seconds", "60"], fakeTime: "@2027-01-04 07:00:10")
        await #expect(waitUntil(20) { !ringing(lib).isEmpty })
        var environment = lib.devices.environment
        environment["TZ"] = "UTC"
        let result = try await ProcessRunner.run(
            FakeClock.wrapper, ["-f", "@2027-01-04 07:00:12", ProjectPaths.binary, "--data-dir", lib.dataDir, "snooze", "--json"],
            environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let snooze = try #require((try json(result.stdout) as? [[String: Any]])?.first)
        let ringAt = try #require(snooze["ringAt"] as? String)
        #expect(ringAt == "2027-01-04T07:07:00+00:00", "07:05:12 rounds up to 07:06, which is taken: \(ringAt)")
        await #expect(waitUntil(10) { !ring.isRunning })
    }

    @Test("With systemd timers the snoozed ring is a dated one-off unit that systemd-analyze accepts; stop removes it")
    func systemdOneOff() async throws {
        let units = TemporaryDirectory("snooze-units")
        let (lib, alarm) = try await library(snooze: 10, extra: ["--scheduler", "systemd", "--unit-dir", units.path])
        let reader = PacedReader(lib.devices.fifo)
        defer { withExtendedLifetime(reader) {} }  // it reads for the whole test
        let ring = try Background(lib, ["ring", alarm, "--device", "slow", "--max-seconds", "60"])
        await #expect(waitUntil(20) { !ringing(lib).isEmpty })
        let result = try await lib.run(["snooze", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        await #expect(waitUntil(10) { !ring.isRunning })
        let id = snoozeID(alarm)
        let timer = try String(contentsOfFile: units.file("voicealarm-\(id).timer"), encoding: .utf8)
        let service = try String(contentsOfFile: units.file("voicealarm-\(id).service"), encoding: .utf8)
        let stamp = try #require((try json(result.stdout) as? [[String: Any]])?.first?["ringAt"] as? String)
        let utc = stamp.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "+00:00", with: "")
        #expect(timer.contains("OnCalendar=\(utc) UTC"), "\(timer)")
        #expect(service.contains("\"ring\" \"\(id)\" \"--scheduled\""), "\(service)")
        #expect(service.contains("--sound"))
        let verify = try await ProcessRunner.run(
            "/usr/bin/systemd-analyze", ["verify", units.file("voicealarm-\(id).timer"), units.file("voicealarm-\(id).service")])
        #expect(verify.status == 0, "\(verify.stderr)")
        await #expect(try lib.ok(["scheduler", "list"]).contains(id))
        _ = try await lib.ok(["stop", "-q"])
        #expect(!FileManager.default.fileExists(atPath: units.file("voicealarm-\(id).timer")))
        #expect(FileManager.default.fileExists(atPath: units.file("voicealarm-\(alarm).timer")), "the alarm itself stays")
    }

    @Test("A snoozed ring rings at its own time from a read-only library; a cancelled one does not")
    func degradedLibrary() async throws {
        let (lib, alarm) = try await library(snooze: 20)
        let reader = PacedReader(lib.devices.fifo)
        defer { withExtendedLifetime(reader) {} }  // it reads for the whole test
        let ring = try Background(lib, ["ring", alarm, "--device", "slow", "--max-seconds", "60"])
        #expect(await waitUntil(20) { !ringing(lib).isEmpty })
        #expect(try await lib.run(["snooze", "-q"]).status == 0)
        #expect(await waitUntil(10) { !ring.isRunning })
        let id = snoozeID(alarm)
        func ringSnoozed() async throws -> ProcessResult {
            try await ProcessRunner.run("/usr/bin/env", ["mount", "--bind", lib.dataDir, lib.dataDir])
            defer { unmountLazily(lib.dataDir) }
            _ = try await ProcessRunner.run("/usr/bin/env", ["mount", "-o", "remount,bind,ro", lib.dataDir])
            // 21 minutes on: 20 minutes late for nothing, on time for the snooze.
            return try await ProcessRunner.run(
                FakeClock.wrapper,
                [
                    "-f", "+21m", ProjectPaths.binary, "--data-dir", lib.dataDir,
                    "ring", id, "--scheduled", "--device", "speaker", "--max-seconds", "1",
                ],
                environment: lib.devices.environment)
        }
        let rang = try await ringSnoozed()
        #expect(rang.status == 0, "\(rang.stderr)")
        #expect(rang.stdout == "\(alarm).m4a\n", "rung, not logged as missed")
        #expect(rang.stderr.contains("cannot be opened to write"))
        _ = try await lib.ok(["stop", "-q"])  // nothing rings: every pending snooze is cancelled
        let cancelled = try await ringSnoozed()
        #expect(cancelled.status == 1)
        #expect(cancelled.stderr.contains("no snooze of this alarm is pending"))
    }
}

/// The real daemon through a snooze, on a faked clock. About two minutes of waiting, during
/// which it holds no thread (its polls suspend): the rest of the run goes on beside it.
@Suite("Snooze through the running daemon", .serialized)
struct SnoozeDaemonTests {
    /// A library whose manifesto alarm rings Mondays at 07:00 with `snooze` minutes of snooze.
    private func library(snooze: Int) async throws -> (RingLibrary, String) {
        let lib = try RingLibrary()
        let clip = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        _ = try await lib.ok(["manifesto", "set", clip, "-q"])
        let alarm = try await lib.ok(["alarm", "add", "manifesto", "--at", "07:00", "--days", "mon", "-q", "--snooze", "\(snooze)"])
        return (lib, alarm)
    }

    @Test("The daemon rings, snooze silences it for the snooze, and the daemon rings it again after it")
    func daemonRingsAgain() async throws {
        let (lib, alarm) = try await library(snooze: 1)
        let reader = PacedReader(lib.devices.fifo)
        defer { withExtendedLifetime(reader) {} }  // it reads for the whole test
        // The faked clock of every process: Monday 2027-01-04 06:59:55 UTC now.
        let offset = "+\(Int(1_799_045_995 - Date().timeIntervalSince1970))s"
        let daemon = try Background(lib, ["daemon", "--device", "slow", "--poll-seconds", "1", "--max-ring-seconds", "300"], fakeTime: offset)
        await #expect(waitUntil(40) { events(lib).contains("ringing alarm \(alarm)") }, "the daemon rings at 07:00")
        await #expect(waitUntil(10) { ringing(lib).contains("\(alarm).pid") })
        let snoozed = try await ProcessRunner.run(
            FakeClock.wrapper, ["-f", offset, ProjectPaths.binary, "--data-dir", lib.dataDir, "snooze"],
            environment: lib.devices.environment.merging(["TZ": "UTC"]) { $1 })
        #expect(snoozed.status == 0, "\(snoozed.stderr)")
        await #expect(waitUntil(10) { ringing(lib).isEmpty }, "silence")
        // Snoozed at about 07:00:02 for a minute: the ring comes back at 07:02:00, the next whole minute.
        await #expect(!waitUntil(50) { events(lib).contains("snoozed 1×") }, "nothing rings during the snooze")
        await #expect(waitUntil(90) { events(lib).contains("ringing alarm \(alarm) (manifesto at 07:00, snoozed 1×)") }, "rings again after it")
        let line = try #require(events(lib).split(separator: "\n").first { $0.contains("snoozed 1×") && $0.contains("ringing") })
        let stamp = try #require(ISO8601DateFormatter().date(from: String(line.prefix(20))))
        #expect(stamp >= Date(timeIntervalSince1970: 1_799_046_120), "not before 07:02: \(line)")
        _ = try await lib.ok(["stop", "-q"])
        daemon.kill()
    }
}
