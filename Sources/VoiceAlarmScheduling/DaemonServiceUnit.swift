import Foundation
import VoiceAlarmFiles

/// The systemd user service that keeps `voicealarm daemon` running for one data dir:
/// `voicealarm-daemon-<hash of the data dir>.service`, `Restart=on-failure`, running a binary
/// that stays (the installed one), with the data dir; each ring reads the remembered device itself.
///
/// ```swift
/// let unit = DaemonServiceUnit(unitDirectory: dir, dataDirectory: data, executable: "/usr/local/bin/voicealarm", device: nil)
/// let outcome = try unit.install()
/// ```
package struct DaemonServiceUnit: Sendable {
    package let unitDirectory: String
    package let dataDirectory: String
    package let executable: String
    package let device: String?
    let systemctl: any SystemctlRunning

    package init(unitDirectory: String, dataDirectory: String, executable: String, device: String?,
                systemctl: any SystemctlRunning = Systemctl()) throws {
        for path in [dataDirectory, executable] + [device].compactMap({ $0 }) where !SystemdTimerScheduler.isSafe(path) {
            throw SchedulerError.unsafePath(path)
        }
        self.unitDirectory = unitDirectory
        self.dataDirectory = dataDirectory
        self.executable = executable
        self.device = device
        self.systemctl = systemctl
    }

    /// The unit's name: one per data dir, never shaped like an alarm's (`voicealarm-<uuid>`).
    package var name: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325   // FNV-1a: stable across runs and machines
        for byte in dataDirectory.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "voicealarm-daemon-\(String(hash, radix: 16).prefix(8)).service"
    }

    package var path: String { "\(unitDirectory)/\(name)" }

    /// The unit file's text.
    package var text: String {
        // No --device: each ring reads the remembered device, so 'settings device' takes effect at once.
        let words = [executable, "--data-dir", dataDirectory, "daemon"]
        return """
            # Written by VoiceAlarm for the daemon of \(dataDirectory); VoiceAlarm rewrites it and edits are lost.
            [Unit]
            Description=VoiceAlarm daemon: rings the alarms of \(dataDirectory)
            X-VoiceAlarm-DataDir=\(dataDirectory)
            After=sound.target

            [Service]
            Type=simple
            ExecStart=\(words.map(SystemdTimerScheduler.quoted).joined(separator: " "))
            Restart=on-failure
            RestartSec=5
            # A restart of the daemon must not cut short a ring it started.
            KillMode=process

            [Install]
            WantedBy=default.target

            """
    }

    /// What the unit's state is.
    package struct State: Sendable, Equatable {
        package var installed: Bool
        /// Whether systemd was asked, and answered (a user manager runs and reads this folder).
        package var managed: Bool
        package var enabled: Bool
        package var running: Bool
        package var lingering: Bool
    }

    /// Whether systemd reads this unit folder and a user manager answers.
    var managed: Bool { unitDirectory == SystemdTimerScheduler.defaultUnitDirectory && systemctl.user(["show-environment"]).status == 0 }

    package func state() -> State {
        let installed = FileSystem.kind(of: path) == .regular
        let managed = self.managed
        return State(installed: installed, managed: managed,
                     enabled: managed && systemctl.user(["is-enabled", name]).status == 0,
                     running: managed && systemctl.user(["is-active", name]).status == 0,
                     lingering: systemctl.lingering())
    }

    /// Writes (or re-writes) the unit and, where systemd manages it, enables and starts it.
    /// - Returns: whether it was already installed.
    /// - Throws: `SchedulerError` when the folder cannot be written or systemctl fails.
    @discardableResult
    package func install() throws -> Bool {
        let existed = FileSystem.kind(of: path) == .regular
        do {
            try FileSystem.makeDirectory(unitDirectory, permissions: 0o755)
            try FileSystem.atomicWrite(Data(text.utf8), to: path, permissions: 0o644)
        } catch let error as SystemError {
            throw SchedulerError.unitDirectory(path: unitDirectory, reason: "cannot write \(name): \(error.reason)")
        }
        if managed {
            try run(["daemon-reload"])
            try run(["enable", "--now", name])
            if existed { try run(["restart", name]) }
        }
        return existed
    }

    /// Stops, disables and removes the unit.
    /// - Throws: `SchedulerError.unitDirectory` ("no daemon service is installed") when there is
    ///   none; `SchedulerError.systemctl` when the user manager refuses the reload.
    package func remove() throws {
        guard FileSystem.kind(of: path) == .regular else { throw SchedulerError.unitDirectory(path: path, reason: "no daemon service is installed") }
        if managed { _ = systemctl.user(["disable", "--now", name]) }
        FileSystem.remove(path)
        if managed { try run(["daemon-reload"]) }
    }

    private func run(_ arguments: [String]) throws {
        let result = systemctl.user(arguments)
        guard result.status == 0 else { throw SchedulerError.systemctl(arguments: ["--user"] + arguments, status: result.status, output: result.output) }
    }
}
