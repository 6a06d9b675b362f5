import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// Starts `voicealarm ring ID --scheduled` processes for the daemon (and the page's test rings), without waiting for them,
/// so each ring is its own process that `voicealarm stop` can stop; the daemon stops the rings
/// it started when it stops. A ring that cannot even be started is said loudly on stderr and in
/// the event log. A ring's stdout (its result line) is not the daemon's output.
final class RingLauncher: Sendable {
    let executable: String, dataDirectory: String, soundsDirectory: String, maxSeconds: Double
    /// The device asked of the daemon (`--device`), or nil for the ring to use the remembered one.
    let device: String?
    /// The ramp asked of the daemon (`--ramp`), or nil for the ring to use the remembered one.
    let ramp: Double?
    /// The daemon's clock, for the event log's times.
    let now: @Sendable () -> Date
    private let running = Locked<[Process]>([])

    init(
        executable: String, dataDirectory: String, soundsDirectory: String, device: String?, ramp: Double?, maxSeconds: Double,
        now: @escaping @Sendable () -> Date
    ) {
        self.now = now
        self.ramp = ramp
        self.executable = executable
        self.dataDirectory = dataDirectory
        self.soundsDirectory = soundsDirectory
        self.device = device
        self.maxSeconds = maxSeconds
    }

    /// Starts the ring of `alarm`, naming its voice file (`--sound`) so the ring can play it
    /// even when the library cannot be read.
    func ring(_ alarm: ScheduledAlarm) {
        var arguments = ["ring", alarm.id.uuidString.lowercased(), "--scheduled", "--max-seconds", "\(maxSeconds)"]
        if case .named(let file) = alarm.configuration.sound { arguments += ["--sound", "\(soundsDirectory)/\(file)"] }
        launch(alarm.id, arguments, output: FileHandle.nullDevice)
    }

    /// Starts a test ring of the alarm `id` asked from the page: its sound for `seconds`, the
    /// ring's `--json` result written to `resultPath` (the page says where it rang and what).
    /// `scheduled` names the voice file as the daemon's list has it, when the alarm is in it.
    func testRing(_ id: UUID, scheduled: ScheduledAlarm?, seconds: Double, resultPath: String) {
        var arguments = ["ring", id.uuidString.lowercased(), "--max-seconds", "\(seconds)", "--json"]
        if case .named(let file) = scheduled?.configuration.sound { arguments += ["--sound", "\(soundsDirectory)/\(file)"] }
        let output: FileHandle
        do {
            try FileSystem.createEmptyFile(at: resultPath, permissions: 0o600)
            output = try FileHandle(forWritingTo: URL(fileURLWithPath: resultPath))
        } catch {
            FileHandle.standardError.write(Data("warning: the test ring's result cannot be kept (\(error)); ringing all the same\n".utf8))
            output = FileHandle.nullDevice
        }
        launch(id, arguments, output: output)
    }

    /// Starts `voicealarm --data-dir D ARGUMENTS` (with the daemon's device and ramp), its stdout to `output`.
    private func launch(_ id: UUID, _ arguments: [String], output: FileHandle) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments =
            ["--data-dir", dataDirectory] + arguments + (device.map { ["--device", $0] } ?? []) + (ramp.map { ["--ramp", "\($0)"] } ?? [])
        // From "/", never from where the daemon was started: a daemon started in a folder its
        // user may not enter (`sudo -u alice voicealarm daemon` from root's home) could not start
        // a ring there, and the alarm would make no sound.
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        do { try process.run() } catch {
            let message = "ALARM MADE NO SOUND: cannot start ring for \(id.uuidString.lowercased()): \(SystemError.text(of: error, path: executable))"
            FileHandle.standardError.write(Data("error: \(message)\n".utf8))
            // Said on stderr just above in any case: a log that cannot take it is said there too.
            do { try EventLog(dataDirectory: dataDirectory).record(message, at: now()) } catch {
                FileHandle.standardError.write(Data("warning: the event log cannot be written (\(error))\n".utf8))
            }
            return
        }
        running.withLock { processes in
            processes.removeAll { !$0.isRunning }
            processes.append(process)
        }
    }

    /// Stops every ring still going (SIGTERM: each restores its mixer and logs), waiting up to
    /// `seconds` for them before killing what is left.
    func stopAll(within seconds: Double = 5) {
        let processes = running.withLock { processes in
            defer { processes.removeAll() }
            return processes.filter(\.isRunning)
        }
        for process in processes { process.terminate() }
        let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
        for process in processes {
            while process.isRunning, ContinuousClock.now < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }
}
