import Foundation
import TestSupport
import Testing

/// A library driven through the binary, playing through ALSA's file plugin.
final class RingLibrary {
    let dir = TemporaryDirectory("ring")
    let devices: AlsaTestDevices
    var dataDir: String { dir.file("data") }

    /// Variables every command of this library runs with, over the devices' (a test's own PATH).
    var environment: [String: String] = [:]

    init(brokenDefault: Bool = false) throws { devices = try AlsaTestDevices(brokenDefault: brokenDefault) }

    func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> ProcessResult {
        try await ProcessRunner.run(
            ProjectPaths.binary, ["--data-dir", dataDir] + arguments,
            environment: devices.environment.merging(environment) { $1 }.merging(extra) { $1 })
    }

    func ok(_ arguments: [String]) async throws -> String {
        let result = try await run(arguments)
        guard result.status == 0 else { throw TestSupportError("\(arguments) failed (\(result.status)): \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .newlines)
    }

    /// A manifesto alarm on a steady 12-second tone (per-second levels are then comparable), returning its id.
    func toneAlarm() async throws -> String {
        let tone = dir.file("steady.wav")
        try await AudioFixtures.tone(tone, seconds: 12)
        let clip = try await ok(["clip", "import", tone, "-q"])
        _ = try await ok(["manifesto", "set", clip, "-q"])
        return try await ok(["alarm", "add", "manifesto", "--at", "07:00", "--days", "mon", "-q"])
    }

    /// A manifesto alarm on `sample`, returning its id: a copy of the test process's template
    /// (`LibraryTemplates`) when this library is new and runs with no variables of its own, else
    /// made here by the same commands.
    func alarm(_ sample: String = "calm.wav", at time: String = "07:00") async throws -> String {
        guard environment.isEmpty, !FileManager.default.fileExists(atPath: dataDir) else {
            return try await Self.alarm(sample, at: time, in: dataDir, environment: devices.environment.merging(environment) { $1 })
        }
        let template = try await LibraryTemplates.shared.library("manifesto alarm on \(sample) at \(time)") { dataDir in
            try await Self.alarm(sample, at: time, in: dataDir, environment: ProcessInfo.processInfo.environment)
        }
        try await ProcessRunner.mustRun("/bin/cp", ["-a", template.dataDir, dataDir])
        _ = try await ok(["build", "--all", "-q"])
        return template.id
    }

    /// Makes a manifesto alarm on `sample` in the library at `dataDir`: import, manifesto set, alarm add.
    private static func alarm(_ sample: String, at time: String, in dataDir: String, environment: [String: String]) async throws -> String {
        func ok(_ arguments: [String]) async throws -> String {
            let result = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", dataDir] + arguments, environment: environment)
            guard result.status == 0 else { throw TestSupportError("\(arguments) failed (\(result.status)): \(result.stderr)") }
            return result.stdout.trimmingCharacters(in: .newlines)
        }
        let clip = try await ok(["clip", "import", "\(ProjectPaths.sampleAudio)/\(sample)", "-q"])
        _ = try await ok(["manifesto", "set", clip, "-q"])
        return try await ok(["alarm", "add", "manifesto", "--at", time, "--days", "mon", "-q"])
    }
}

@Suite("ring, listen and stop, through ALSA's file plugin")
struct RingCommandTests {
    @Test("ring plays the alarm's ringtone, looping, for --max-seconds")
    func ringPlaysRingtone() async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm()
        let result = try await lib.run(["ring", id, "--max-seconds", "12"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "\(id).m4a\n")
        #expect(result.stderr.contains("has no mixer to unmute; ringing anyway"))
        let played = try await IndependentMeasure.decodedSamples(lib.devices.played)
        let ringtone = try await IndependentMeasure.decodedSamples("\(lib.dataDir)/Sounds/\(id).m4a")
        #expect(played.count == 12 * 44_100)
        #expect(correlation(Array(played.prefix(ringtone.count)), ringtone) > 0.999)
        #expect(correlation(Array(played.dropFirst(ringtone.count).prefix(ringtone.count)), ringtone) > 0.999, "it loops")
    }

    @Test("With the voice file missing, corrupt or switched off, the default tone plays", arguments: ["missing", "corrupt", "off"])
    func defaultTone(_ how: String) async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm()
        let file = "\(lib.dataDir)/Sounds/\(id).m4a"
        switch how {
        case "missing": try FileManager.default.removeItem(atPath: file)
        case "corrupt": try Data(repeating: 0x42, count: 5000).write(to: URL(fileURLWithPath: file))
        default: _ = try await lib.ok(["voice", "off", id, "-q"])
        }
        let result = try await lib.run(["ring", id, "--max-seconds", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "default-tone.caf\n")
        let played = try await IndependentMeasure.decodedSamples(lib.devices.played)
        let tone = try await IndependentMeasure.decodedSamples("\(lib.dataDir)/default-tone.caf")
        #expect(played.count == 3 * 44_100)
        #expect(correlation(played, Array(tone.prefix(played.count))) > 0.999)
    }

    @Test("A device that does not exist falls back to 'default'; a named device is used")
    func devices() async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm()
        let fallback = try await lib.run(["ring", id, "--device", "no-such-device", "--max-seconds", "1"])
        #expect(fallback.status == 0)
        #expect(fallback.stderr.contains("no-such-device") && fallback.stderr.contains("trying 'default'"))
        #expect(try await IndependentMeasure.decodedSamples(lib.devices.played).count == 44_100)
        await #expect(try lib.run(["ring", id, "--device", "speaker", "--max-seconds", "2"]).status == 0)
        #expect(try await IndependentMeasure.decodedSamples(lib.devices.speaker).count == 2 * 44_100)
    }

    @Test("When nothing can play, it fails loudly: exit 1, stderr and the event log")
    func noSound() async throws {
        let lib = try RingLibrary(brokenDefault: true)
        let id = try await lib.alarm()
        let result = try await lib.run(["ring", id, "--max-seconds", "1"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("ALARM MADE NO SOUND"))
        #expect(try String(contentsOfFile: "\(lib.dataDir)/events.log", encoding: .utf8).contains("ALARM MADE NO SOUND"))
    }

    @Test("listen plays every clip of the target, whole and untrimmed, in playlist order")
    func listen() async throws {
        let lib = try RingLibrary()
        let a = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/manifesto.flac", "-q"])
        let b = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/kind.ogg", "-q"])
        _ = try await lib.ok(["playlist", "create", "morning", a, b, "-q"])
        let id = try await lib.ok(["alarm", "add", "morning", "--at", "06:00", "--days", "sun", "-q"])
        await #expect(try lib.run(["listen", id]).status == 0)
        let played = try await IndependentMeasure.decodedSamples(lib.devices.played)
        let clips = try await JSONSerialization.jsonObject(with: Data(lib.ok(["clip", "list", "--json"]).utf8)) as! [[String: Any]]
        let first = try await IndependentMeasure.decodedSamples(clips[0]["path"] as! String)
        let second = try await IndependentMeasure.decodedSamples(clips[1]["path"] as! String)
        #expect(played.count == first.count + second.count, "the 35 s manifesto plays whole, past the cap")
        #expect(correlation(Array(played.prefix(first.count)), first) > 0.999)
        #expect(correlation(Array(played.dropFirst(first.count)), second) > 0.999)
    }

    @Test("stop stops a ringing alarm; it exits cleanly and leaves no trace", .timeLimit(.minutes(1)))
    func stop() async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm()
        // Read the pipe the 'slow' device plays into, in real time-ish, so the ring keeps going.
        let reader = PacedReader(lib.devices.fifo)
        defer { withExtendedLifetime(reader) {} }  // it reads for the whole test
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProjectPaths.binary)
        process.arguments = ["--data-dir", lib.dataDir, "ring", id, "--device", "slow"]
        process.environment = lib.devices.environment
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let pidFile = "\(lib.dataDir)/ringing/\(id).pid"
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: pidFile) { await pause(0.01) }
        #expect(FileManager.default.fileExists(atPath: pidFile))
        let stop = try await lib.run(["stop"])
        #expect(stop.status == 0)
        #expect(stop.stdout == "\(id)\n")
        await process.ended()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("(stopped)"))
        #expect(!FileManager.default.fileExists(atPath: pidFile))
        await #expect(try lib.run(["stop"]).stderr.contains("Nothing of ours is ringing"))
    }

    @Test(
        "A device that dies mid-ring (the reader of its pipe goes away) hands the ring to 'default', said and logged",
        .timeLimit(.minutes(1)))
    func deviceDiesMidRing() async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm()
        let reader = FileHandle(forUpdatingAtPath: lib.devices.fifo)!
        let reading = Thread {
            var taken = 0
            while taken < 100_000, let data = try? reader.read(upToCount: 8_820), !data.isEmpty { taken += data.count }
            try? reader.close()  // about a second in: the device is gone
        }
        reading.start()
        let result = try await lib.run(["ring", id, "--device", "slow", "--max-seconds", "4"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("'slow' failed mid-ring") && result.stderr.contains("ringing on 'default'"), "\(result.stderr)")
        let rest = try await IndependentMeasure.decodedSamples(lib.devices.played)
        #expect(rest.count > 2 * 44_100 && rest.count < 4 * 44_100, "the rest of the ring played on 'default': \(rest.count) samples")
        #expect(try String(contentsOfFile: "\(lib.dataDir)/events.log", encoding: .utf8).contains("failed mid-ring"))
    }
}
