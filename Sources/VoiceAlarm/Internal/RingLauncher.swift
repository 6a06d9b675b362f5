import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// Starts `voicealarm ring ID --scheduled` processes for the daemon, without waiting for them,
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
        let id = alarm.id
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments =
            [
                "--data-dir", dataDirectory, "ring", id.uuidString.lowercased(), "--scheduled",
                "--max-seconds", "\(maxSeconds)",
            ] + (device.map { ["--device", $0] } ?? []) + (ramp.map { ["--ramp", "\($0)"] } ?? [])
        if case .named(let file) = alarm.configuration.sound { process.arguments! += ["--sound", "\(soundsDirectory)/\(file)"] }
        // From "/", never from where the daemon was started: a daemon started in a folder its
        // user may not enter (`sudo -u alice voicealarm daemon` from root's home) could not start
        // a ring there, and the alarm would make no sound.
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
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
