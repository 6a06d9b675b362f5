import Foundation
import VoiceAlarmFiles

/// A systemd user service VoiceAlarm keeps for one data dir, running a binary that stays (the
/// installed one) with the data dir, `Restart=on-failure`:
/// - the daemon, `voicealarm-daemon-<id>.service` (`voicealarm daemon`; each ring reads the
///   remembered device itself);
/// - the web page, `voicealarm-web-<id>.service` (`voicealarm serve` with its arguments), beside
///   the daemon and never needed by it: the alarms ring with the server down.
///
/// `<id>` is a hash of the data dir, the same for both units.
///
/// ```swift
/// let unit = try UserServiceUnit(.daemon, unitDirectory: dir, dataDirectory: data, executable: "/usr/local/bin/voicealarm", device: nil)
/// let existed = try unit.install()
/// ```
package struct UserServiceUnit: Sendable {
    /// What the unit runs.
    package enum Role: Sendable, Equatable {
        /// `voicealarm daemon`: rings the alarms.
        case daemon
        /// `voicealarm serve ARGUMENTS`: the web page (the arguments are `serve`'s options, paths absolute).
        case web(serveArguments: [String])

        /// The word in the unit's name and messages: `daemon` or `web`.
        package var word: String {
            switch self {
            case .daemon: "daemon"
            case .web: "web"
            }
        }
    }

    package let role: Role
    package let unitDirectory: String
    package let dataDirectory: String
    package let executable: String
    package let device: String?
    let systemctl: any SystemctlRunning

    /// - Throws: `SchedulerError.unsafePath` for a path or argument a unit file cannot carry.
    package init(_ role: Role = .daemon, unitDirectory: String, dataDirectory: String, executable: String, device: String?,
                systemctl: any SystemctlRunning = Systemctl()) throws {
        var words = [dataDirectory, executable] + [device].compactMap({ $0 })
        if case .web(let arguments) = role { words += arguments }
        for word in words where !SystemdTimerScheduler.isSafe(word) {
            throw SchedulerError.unsafePath(word)
        }
        self.role = role
        self.unitDirectory = unitDirectory
        self.dataDirectory = dataDirectory
        self.executable = executable
        self.device = device
        self.systemctl = systemctl
    }

    /// The unit's name: one per data dir and role, never shaped like an alarm's (`voicealarm-<uuid>`).
    package var name: String { "voicealarm-\(role.word)-\(id).service" }

    /// The data dir's hash, shared by its daemon's and its web page's units.
    package var id: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325   // FNV-1a: stable across runs and machines
        for byte in dataDirectory.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(String(hash, radix: 16).prefix(8))
    }

    package var path: String { "\(unitDirectory)/\(name)" }

    /// Whether the unit file is there.
    package var isInstalled: Bool { FileSystem.kind(of: path) == .regular }

    /// The unit file's text.
    package var text: String {
        switch role {
        case .daemon:
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
        case .web(let arguments):
            let words = [executable, "--data-dir", dataDirectory, "serve"] + arguments
            return """
                # Written by VoiceAlarm for the web page of \(dataDirectory); VoiceAlarm rewrites it and edits are lost.
                # Nothing here depends on the daemon's unit, nor it on this one: the alarms ring with the web page down.
                [Unit]
                Description=VoiceAlarm web page: the alarms of \(dataDirectory) from a phone
                X-VoiceAlarm-DataDir=\(dataDirectory)

                [Service]
                Type=simple
                ExecStart=\(words.map(SystemdTimerScheduler.quoted).joined(separator: " "))
                # Also when the address is not up yet at login: tried again every 5 seconds.
                Restart=on-failure
                RestartSec=5

                [Install]
                WantedBy=default.target

                """
        }
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
        let installed = isInstalled
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
        let existed = isInstalled
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

    /// Starts the installed unit now (it was stopped, or failed and gave up restarting).
    /// - Throws: `SchedulerError.unitDirectory` when it is not installed or no user manager
    ///   manages it; `SchedulerError.systemctl` when the start fails.
    package func start() throws {
        guard isInstalled else { throw SchedulerError.unitDirectory(path: path, reason: "no \(role.word) service is installed") }
        guard managed else { throw SchedulerError.unitDirectory(path: path, reason: "no systemd user manager manages it here") }
        try run(["start", name])
    }

    /// Stops, disables and removes the unit.
    /// - Throws: `SchedulerError.unitDirectory` ("no daemon service is installed", or "no web
    ///   service") when there is none; `SchedulerError.systemctl` when the user manager refuses the reload.
    package func remove() throws {
        guard isInstalled else { throw SchedulerError.unitDirectory(path: path, reason: "no \(role.word) service is installed") }
        if managed { _ = systemctl.user(["disable", "--now", name]) }
        FileSystem.remove(path)
        if managed { try run(["daemon-reload"]) }
    }

    /// What to run to finish by hand when no systemd user manager manages the unit's folder.
    package var manualSteps: String {
        unitDirectory == SystemdTimerScheduler.defaultUnitDirectory
            ? "systemctl --user daemon-reload && systemctl --user enable --now \(name)"
            : "systemctl --user link \(path) && systemctl --user enable --now \(name)"
    }

    private func run(_ arguments: [String]) throws {
        let result = systemctl.user(arguments)
        guard result.status == 0 else { throw SchedulerError.systemctl(arguments: ["--user"] + arguments, status: result.status, output: result.output) }
    }
}
