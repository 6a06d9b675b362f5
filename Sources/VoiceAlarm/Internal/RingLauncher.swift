import Foundation
import Synchronization
import VoiceAlarmFiles

/// Starts `voicealarm ring ID --scheduled` processes for the daemon, without waiting for them,
/// so each ring is its own process that `voicealarm stop` can stop. A ring that cannot even be
/// started is said loudly on stderr and in the event log.
final class RingLauncher: Sendable {
    let executable: String, dataDirectory: String, device: String, maxSeconds: Double
    private let running = Mutex<[Process]>([])

    init(executable: String, dataDirectory: String, device: String, maxSeconds: Double) {
        self.executable = executable
        self.dataDirectory = dataDirectory
        self.device = device
        self.maxSeconds = maxSeconds
    }

    func ring(_ id: UUID) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--data-dir", dataDirectory, "ring", id.uuidString.lowercased(), "--scheduled",
                             "--device", device, "--max-seconds", "\(maxSeconds)"]
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            let message = "ALARM MADE NO SOUND: cannot start ring for \(id.uuidString.lowercased()): \(SystemError.text(of: error, path: executable))"
            FileHandle.standardError.write(Data("error: \(message)\n".utf8))
            EventLog(dataDirectory: dataDirectory).record(message)
            return
        }
        running.withLock { processes in
            processes.removeAll { !$0.isRunning }
            processes.append(process)
        }
    }
}
