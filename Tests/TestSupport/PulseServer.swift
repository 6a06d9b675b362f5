import Foundation

/// A private, headless PulseAudio server with one null sink, `spk`, whose monitor records what a
/// speaker would play; ALSA's `default` goes through it (libasound2-plugins), as on a desktop.
public final class PulseServer: @unchecked Sendable {
    public let dir = TemporaryDirectory("pulse")
    /// The environment that reaches this server (ALSA's `default` included).
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = dir.file("run")
        environment["ALSA_CONFIG_PATH"] = nil
        return environment
    }

    public init() async throws {
        try FileManager.default.createDirectory(atPath: dir.file("run"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        _ = try await ProcessRunner.run(
            "/usr/bin/pulseaudio",
            [
                "-n", "--daemonize=yes", "--exit-idle-time=-1", "--disallow-exit",
                "-L", "module-native-protocol-unix", "-L", "module-null-sink sink_name=spk",
                "-L", "module-always-sink",
            ], environment: environment)
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
    public func pactl(_ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.run("/usr/bin/pactl", arguments, environment: environment)
    }

    /// What the speaker played while `body` ran, recorded from the sink's monitor.
    public func recording(_ body: () async throws -> Void) async throws -> [Int16] {
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
