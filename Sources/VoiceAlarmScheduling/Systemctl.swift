import Foundation
import VoiceAlarmFiles

/// Runs `systemctl --user …` (and `loginctl`), so the systemd backend can be tested without a
/// user manager by giving it a fake.
package protocol SystemctlRunning: Sendable {
    /// Runs `systemctl --user ARGUMENTS`; returns its exit status and combined output.
    func user(_ arguments: [String]) -> (status: Int32, output: String)
    /// Whether lingering is on for the current user (units run without a login session).
    func lingering() -> Bool
}

/// The real `systemctl`.
package struct Systemctl: SystemctlRunning {
    package init() {}

    package func user(_ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["systemctl", "--user"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return (127, "systemctl: " + SystemError.text(of: error)) }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    package func lingering() -> Bool {
        let user = ProcessInfo.processInfo.environment["USER"] ?? NSUserName()
        return FileManager.default.fileExists(atPath: "/var/lib/systemd/linger/\(user)")
    }
}
