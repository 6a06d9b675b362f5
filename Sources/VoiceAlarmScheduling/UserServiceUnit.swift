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
/// Or, for the default data dir, the unit of that role the Debian package ships
/// (`ShippedUnit`, `voicealarm-daemon.service`): then installing enables it instead of writing
/// a file, and removing disables it; the file stays the package's.
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
        /// `voicealarm mqtt`: the Home Assistant bridge, with the settings remembered in the data dir.
        case mqtt

        /// The word in the unit's name and messages: `daemon`, `web` or `mqtt`.
        package var word: String {
            switch self {
            case .daemon: "daemon"
            case .web: "web"
            case .mqtt: "mqtt"
            }
        }
    }

    /// Where the unit comes from.
    package enum Origin: Sendable, Equatable {
        /// Written by VoiceAlarm into the unit folder, for one data dir.
        case written
        /// Shipped by the package, for the default data dir: enabled, never written.
        case shipped(ShippedUnit)
    }

    package let role: Role
    package private(set) var origin: Origin
    package let unitDirectory: String
    package let dataDirectory: String
    package let executable: String
    package let device: String?
    /// The web page's sockets (`ListenStream=` values: `127.0.0.1:21000`, `[::1]:21000`, `[::]:8470`)
    /// for the socket unit written beside it (`socketText`), which holds the port while the page
    /// restarts or is upgraded so no other account can take it; empty for none (the daemon, a
    /// port the kernel picks).
    package let listening: [String]
    /// Whether `[::]` in `listening` takes IPv4 too (`BindIPv6Only=both`).
    package let dualStack: Bool
    let systemctl: any SystemctlRunning

    /// - Throws: `SchedulerError.unsafePath` for a path or argument a unit file cannot carry.
    package init(
        _ role: Role = .daemon, unitDirectory: String, dataDirectory: String, executable: String, device: String?,
        listening: [String] = [], dualStack: Bool = false, systemctl: any SystemctlRunning = Systemctl()
    ) throws {
        precondition(listening.isEmpty || role != .daemon, "only the web page listens")
        var words = [dataDirectory, executable] + [device].compactMap({ $0 })
        if case .web(let arguments) = role { words += arguments }
        for word in words where !SystemdTimerScheduler.isSafe(word) {
            throw SchedulerError.unsafePath(word)
        }
        self.role = role
        self.origin = .written
        self.unitDirectory = unitDirectory
        self.dataDirectory = dataDirectory
        self.executable = executable
        self.device = device
        self.listening = listening
        self.dualStack = dualStack
        self.systemctl = systemctl
    }

    /// The same role, data dir and binary, as the package's unit `shipped`.
    package func shipped(_ shipped: ShippedUnit) -> UserServiceUnit {
        var unit = self
        unit.origin = .shipped(shipped)
        return unit
    }

    /// Whether the package shipped it.
    package var isShipped: Bool { if case .shipped = origin { true } else { false } }

    /// The unit's name: one per data dir and role, never shaped like an alarm's (`voicealarm-<uuid>`);
    /// the package's `voicealarm-<role>.service`.
    package var name: String {
        isShipped ? ShippedUnit.name(role) : "voicealarm-\(role.word)-\(id).service"
    }

    /// The data dir's hash, shared by its daemon's and its web page's units.
    package var id: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: stable across runs and machines
        for byte in dataDirectory.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(String(hash, radix: 16).prefix(8))
    }

    /// The socket unit written beside a web page's unit, when it listens somewhere fixed.
    package var socketName: String? { isShipped || listening.isEmpty ? nil : "voicealarm-\(role.word)-\(id).socket" }
    package var socketPath: String? { socketName.map { "\(unitDirectory)/\($0)" } }

    /// The socket unit's text: systemd binds every address the page holds and passes them to
    /// `serve` when it starts (`InheritedSockets`), and keeps them bound while it is down.
    package var socketText: String? {
        guard !listening.isEmpty else { return nil }
        return """
            # Written by VoiceAlarm for the web page of \(dataDirectory); VoiceAlarm rewrites it and edits are lost.
            # It holds the page's port while the page restarts or is upgraded: no other account can take it meanwhile.
            [Unit]
            Description=VoiceAlarm web page's port: the alarms of \(dataDirectory) from a phone
            X-VoiceAlarm-DataDir=\(dataDirectory)

            [Socket]
            \(listening.map { "ListenStream=\($0)" }.joined(separator: "\n"))
            BindIPv6Only=\(dualStack ? "both" : "ipv6-only")

            [Install]
            WantedBy=sockets.target

            """
    }

    package var path: String {
        switch origin {
        case .written: "\(unitDirectory)/\(name)"
        case .shipped(let shipped): shipped.path
        }
    }

    /// Whether the unit file is there; for the package's, whether it is enabled (where no user
    /// manager answers: whether `systemctl --user enable` left its link in `default.target.wants`).
    package var isInstalled: Bool { installed(managed: managed) { systemctl.user(["is-enabled", name]).status == 0 } }

    /// `isInstalled`, given whether a user manager answers and, where one does, how to ask it
    /// whether the unit is enabled (`state()` has asked already).
    private func installed(managed: Bool, enabled: () -> Bool) -> Bool {
        guard isShipped else { return FileSystem.kind(of: path) == .regular }
        return managed ? enabled() : FileSystem.kind(of: wantsLink) != .missing
    }

    /// The link `systemctl --user enable` makes for a unit `WantedBy=default.target`.
    var wantsLink: String { "\(unitDirectory)/default.target.wants/\(name)" }

    /// The text of the unit VoiceAlarm writes for this data dir.
    package var text: String {
        // No --device: each ring reads the remembered device, so 'settings device' takes effect at once.
        let command = ([executable, "--data-dir", dataDirectory] + ShippedUnit.arguments(role))
            .map(SystemdTimerScheduler.quoted).joined(separator: " ")
        switch role {
        case .daemon:
            return """
                # Written by VoiceAlarm for the daemon of \(dataDirectory); VoiceAlarm rewrites it and edits are lost.
                [Unit]
                Description=VoiceAlarm daemon: rings the alarms of \(dataDirectory)
                X-VoiceAlarm-DataDir=\(dataDirectory)
                After=sound.target

                \(Self.serviceSection(role, command: command))
                """
        case .web:
            return """
                # Written by VoiceAlarm for the web page of \(dataDirectory); VoiceAlarm rewrites it and edits are lost.
                # Nothing here depends on the daemon's unit, nor it on this one: the alarms ring with the web page down.
                [Unit]
                Description=VoiceAlarm web page: the alarms of \(dataDirectory) from a phone
                X-VoiceAlarm-DataDir=\(dataDirectory)

                \(Self.serviceSection(role, command: command))
                """
        case .mqtt:
            return """
                # Written by VoiceAlarm for the Home Assistant bridge of \(dataDirectory); VoiceAlarm rewrites it and edits are lost.
                # Nothing here depends on the daemon's unit, nor it on this one: the alarms ring with the bridge down.
                [Unit]
                Description=VoiceAlarm for Home Assistant: the alarms of \(dataDirectory) over MQTT
                X-VoiceAlarm-DataDir=\(dataDirectory)
                After=network-online.target

                \(Self.serviceSection(role, command: command))
                """
        }
    }

    /// `[Service]` and `[Install]`, the same in a written unit and the package's.
    static func serviceSection(_ role: Role, command: String) -> String {
        switch role {
        case .daemon:
            return """
                [Service]
                Type=simple
                ExecStart=\(command)
                Restart=on-failure
                RestartSec=5
                # A restart of the daemon must not cut short a ring it started.
                KillMode=process

                [Install]
                WantedBy=default.target

                """
        case .mqtt:
            return """
                [Service]
                Type=simple
                ExecStart=\(command)
                # A broker that is down is waited for by the bridge itself; it ends only when the broker
                # refuses it (credentials, TLS), and a restart then tries again after half a minute.
                Restart=on-failure
                RestartSec=30

                [Install]
                WantedBy=default.target

                """
        case .web:
            return """
                [Service]
                Type=simple
                ExecStart=\(command)
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

    /// The user manager's environment (`systemctl --user show-environment`), which a unit's
    /// command starts with; nil when no manager answers.
    package func managerEnvironment() -> [String: String]? {
        let result = systemctl.user(["show-environment"])
        guard result.status == 0 else { return nil }
        var environment: [String: String] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { environment[String(parts[0])] = String(parts[1]) }
        }
        return environment
    }

    package func state() -> State {
        // Each question asked of systemctl once (`isInstalled` would ask two of them again).
        let managed = self.managed
        let enabled = managed && systemctl.user(["is-enabled", name]).status == 0
        let installed = self.installed(managed: managed) { enabled }
        return State(
            installed: installed, managed: managed, enabled: enabled,
            running: managed && systemctl.user(["is-active", name]).status == 0,
            lingering: systemctl.lingering())
    }

    /// Writes (or re-writes) the unit and, where systemd manages it, enables and starts it; the
    /// package's is only enabled and started (restarted when it was), and left as it is where no
    /// user manager answers (`manualSteps` say what to run).
    /// - Returns: whether it was already installed.
    /// - Throws: `SchedulerError` when the folder cannot be written or systemctl fails.
    @discardableResult
    package func install() throws -> Bool {
        let existed = isInstalled
        if isShipped {
            guard managed else { return existed }
            try run(["daemon-reload"])  // the package may have come since the manager last read its folders
            try run(["enable", "--now", name])
            if existed { try run(["restart", name]) }
            return existed
        }
        // A port the kernel picks has no socket unit: one left from an install before goes.
        if socketName == nil { retireSocket(managed: managed) }
        do {
            try FileSystem.makeDirectory(unitDirectory, permissions: 0o755)
            if let socketPath, let socketText { try FileSystem.atomicWrite(Data(socketText.utf8), to: socketPath, permissions: 0o644) }
            try FileSystem.atomicWrite(Data(text.utf8), to: path, permissions: 0o644)
        } catch let error as SystemError {
            throw SchedulerError.unitDirectory(path: unitDirectory, reason: "cannot write \(name): \(error.reason)")
        }
        if managed {
            try run(["daemon-reload"])
            // The socket first: the page then starts on the sockets it holds.
            if let socketName {
                if existed { _ = systemctl.user(["stop", name]) }
                try run(["enable", "--now", socketName])
                if existed { try run(["restart", socketName]) }
            }
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
        if isShipped {
            // The file is the package's: disabled, not removed.
            if managed { try run(["disable", "--now", name]) } else { FileSystem.remove(wantsLink) }
            return
        }
        if managed { _ = systemctl.user(["disable", "--now", name]) }
        retireSocket(managed: managed)
        FileSystem.remove(path)
        if managed { try run(["daemon-reload"]) }
    }

    /// The socket unit this data dir's page had, whatever it listened on: disabled (its port let
    /// go) and removed. Every written web unit's, so a socket unit never outlives its page's.
    private func retireSocket(managed: Bool) {
        guard !isShipped, role != .daemon else { return }
        let socket = "voicealarm-\(role.word)-\(id).socket"
        guard FileSystem.kind(of: "\(unitDirectory)/\(socket)") != .missing else { return }
        if managed { _ = systemctl.user(["disable", "--now", socket]) }
        FileSystem.remove("\(unitDirectory)/\(socket)")
    }

    /// Whether the unit is in a folder a user manager reads (the package's, or the account's
    /// own): with none running, nothing starts it; in a folder of the person's choosing
    /// (`--unit-dir`), it waits to be linked.
    package var inSystemdFolder: Bool { isShipped || unitDirectory == SystemdTimerScheduler.defaultUnitDirectory }

    /// What to run to finish by hand when no systemd user manager manages the unit's folder.
    package var manualSteps: String {
        let names = ([socketName].compactMap { $0 } + [name]).joined(separator: " ")
        return inSystemdFolder
            ? "systemctl --user daemon-reload && systemctl --user enable --now \(names)"
            : "systemctl --user link \(([path] + [socketPath].compactMap { $0 }).joined(separator: " ")) && systemctl --user enable --now \(names)"
    }

    private func run(_ arguments: [String]) throws {
        let result = systemctl.user(arguments)
        guard result.status == 0 else { throw SchedulerError.systemctl(arguments: ["--user"] + arguments, status: result.status, output: result.output) }
    }
}
