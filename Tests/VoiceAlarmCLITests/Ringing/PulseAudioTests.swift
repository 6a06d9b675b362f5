import Foundation
import Testing
import TestSupport

/// A private, headless PulseAudio server with one null sink, `spk`, whose monitor records what a
/// speaker would play; ALSA's `default` goes through it (libasound2-plugins), as on a desktop.
private final class PulseServer {
    let dir = TemporaryDirectory("pulse")
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = dir.file("run")
        environment["ALSA_CONFIG_PATH"] = nil
        return environment
    }

    init() async throws {
        try FileManager.default.createDirectory(atPath: dir.file("run"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        _ = try await ProcessRunner.run("/usr/bin/pulseaudio", ["-n", "--daemonize=yes", "--exit-idle-time=-1", "--disallow-exit",
                                                         "-L", "module-native-protocol-unix", "-L", "module-null-sink sink_name=spk",
                                                         "-L", "module-always-sink"], environment: environment)
        for _ in 0..<50 where try await pactl(["info"]).status != 0 { await pause(0.1) }
        _ = try await pactl(["set-default-sink", "spk"])
    }

    /// `pulseaudio --kill` without a process (a deinit cannot wait for one): the server's pid file names it.
    deinit {
        let pidFile = dir.file("run/pulse/pid")
        if let text = try? String(contentsOfFile: pidFile, encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            kill(pid, SIGTERM)
        }
    }

    @discardableResult
    func pactl(_ arguments: [String]) async throws -> ProcessResult { try await ProcessRunner.run("/usr/bin/pactl", arguments, environment: environment) }

    /// What the speaker played while `body` ran, recorded from the sink's monitor.
    func recording(_ body: () async throws -> Void) async throws -> [Int16] {
        let file = dir.file("monitor-\(UUID().uuidString.prefix(6)).wav")
        let parec = Process()
        // The test runner ignores SIGINT and SIGTERM, and children inherit that: restore them so parec can be stopped.
        parec.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        parec.arguments = ["--default-signal=INT,TERM", "/usr/bin/parec", "-d", "spk.monitor", "--file-format=wav", "--channels=1", "--rate=44100", file]
        parec.environment = environment
        try parec.run()
        await pause(0.3)
        try await body()
        await pause(0.3)
        parec.interrupt()
        for _ in 0..<50 where parec.isRunning { await pause(0.1) }
        if parec.isRunning { kill(parec.processIdentifier, SIGKILL) }
        await parec.ended()
        return try await IndependentMeasure.decodedSamples(file)
    }
}

/// RMS in dB of each whole second of `samples` from the first loud one on.
private func levels(_ samples: [Int16]) -> [Double] {
    guard let onset = samples.firstIndex(where: { abs(Int($0)) > 300 }) else { return [] }
    return stride(from: onset, to: samples.count - 44_099, by: 44_100).map { start in
        let power = samples[start..<start + 44_100].reduce(0.0) { $0 + Double($1) * Double($1) } / 44_100
        return 10 * log10(max(power, 1e-9) / (32768.0 * 32768.0))
    }
}

@Suite("Ringing through a desktop sound server (a real PulseAudio)", .serialized, .timeLimit(.minutes(1)))
struct PulseAudioTests {
    @Test("A muted or 3 % sink is heard during the ring and restored after it", arguments: ["muted", "3%"])
    func silentModeOverridden(_ state: String) async throws {
        let server = try await PulseServer()
        let lib = try RingLibrary()
        let id = try await lib.alarm()
        if state == "muted" { try await server.pactl(["set-sink-mute", "spk", "1"]) } else { try await server.pactl(["set-sink-volume", "spk", "3%"]) }
        let heard = try await server.recording {
            let ring = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", lib.dataDir, "ring", id, "--max-seconds", "3"],
                                             environment: server.environment)
            #expect(ring.status == 0, "\(ring.stderr)")
            #expect(ring.stderr.contains("For the ring:") && ring.stderr.contains("restored afterwards"), "\(ring.stderr)")
        }
        let loud = levels(heard)
        #expect(loud.count >= 2 && loud.prefix(2).allSatisfy { $0 > -40 }, "heard at the monitor: \(loud)")
        let mute = try await server.pactl(["get-sink-mute", "spk"]).stdout
        let volume = try await server.pactl(["get-sink-volume", "spk"]).stdout
        if state == "muted" { #expect(mute.contains("yes"), "restored: \(mute)") } else { #expect(volume.contains(" 3% ") || volume.contains("/   3% /"), "restored: \(volume)") }
    }

    @Test("The ramp, at the monitor: each second louder than the last, full level within 1 dB by its end")
    func rampAtTheMonitor() async throws {
        let server = try await PulseServer()
        let lib = try RingLibrary()
        let id = try await lib.toneAlarm()
        let heard = try await server.recording {
            let ring = try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", lib.dataDir, "ring", id, "--max-seconds", "7", "--ramp", "4"],
                                             environment: server.environment)
            #expect(ring.status == 0, "\(ring.stderr)")
        }
        let rising = levels(heard)
        #expect(rising.count >= 6, "\(rising)")
        guard rising.count >= 6 else { return }
        for second in 1..<4 { #expect(rising[second] > rising[second - 1], "second \(second): \(rising)") }
        #expect(abs(rising[4] - rising[5]) <= 1, "full level by the ramp's end: \(rising)")
    }
}
