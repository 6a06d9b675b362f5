import Foundation
import VoiceAlarm
import VoiceAlarmDocuments

/// `voicealarm service install | remove | status`: the daemon as a systemd user service.
enum ServiceCommands {
    static let installSpec = CommandSpec(
        name: "service install", summary: "Run the daemon as a systemd user service, started now and at every login",
        arguments: "", minimumArguments: 0, maximumArguments: 0, options: [],
        discussion: """
          Writes voicealarm-daemon-<id>.service into the unit folder (Restart=on-failure, the installed
          binary, this data dir, the remembered device) and, when a systemd user manager runs, enables
          and starts it; otherwise it prints the commands to run. Installing again re-writes it.
          Without lingering (loginctl enable-linger) the daemon runs only while you are logged in.
          Prints the unit's path.
        """,
        examples: ["voicealarm service install", "voicealarm --data-dir ~/alarms service install"])
    static let removeSpec = CommandSpec(
        name: "service remove", summary: "Stop and remove the daemon's service", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [], examples: ["voicealarm service remove"])
    static let statusSpec = CommandSpec(
        name: "service status", summary: "Whether the daemon's service is installed, enabled and running", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [],
        discussion: #"  --json prints {"unit", "installed", "managed", "enabled", "running", "lingering"}."#,
        examples: ["voicealarm service status --json"])

    static let specs = [installSpec, removeSpec, statusSpec]

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let location = try context.location()
        let daemon = try DaemonService(service: try context.library(), location: location)
        let unit = daemon.unit
        switch parsed.command {
        case installSpec.name:
            let existed = try unit.install()
            let state = unit.state()
            context.present(StatusJSON(unit.path, installed: state.installed, managed: state.managed, enabled: state.enabled,
                                       running: state.running, lingering: state.lingering, cannotWake: daemon.cannotWake)) { context.console.result(unit.path) }
            if existed { context.console.note("warning: \(unit.name) was already installed; re-wrote it") }
            context.say(state.managed ? "Installed \(unit.name), enabled and started: the alarms of \(unit.dataDirectory) ring without a terminal open."
                                      : "Wrote \(unit.path). No systemd user manager manages it here; to start it: \(daemon.manualSteps)")
            if !state.lingering { context.say("note: lingering is off: the daemon runs only while you are logged in (loginctl enable-linger \(ProcessInfo.processInfo.environment["USER"] ?? "$USER"))") }
            if let warning = location.buildFolderProblem { context.say("warning: \(warning.sentence(libraryOpens: true))") }
            if let reason = daemon.cannotWake {
                context.say("note: alarms cannot wake this machine from suspend: \(reason)")
            }
        case removeSpec.name:
            try unit.remove()
            let state = unit.state()
            context.present(StatusJSON(unit.path, installed: state.installed, managed: state.managed, enabled: state.enabled,
                                       running: state.running, lingering: state.lingering, cannotWake: nil)) { context.console.result(unit.path) }
            context.say("Removed \(unit.name); nothing rings the embedded alarms until a daemon runs.")
        case statusSpec.name:
            let state = unit.state()
            context.present(StatusJSON(unit.path, installed: state.installed, managed: state.managed, enabled: state.enabled,
                                       running: state.running, lingering: state.lingering, cannotWake: nil)) {
                context.console.result("unit: \(unit.path)")
                context.console.result("installed: \(state.installed ? "yes" : "no")")
                context.console.result(state.managed ? "enabled: \(state.enabled ? "yes" : "no")\nrunning: \(state.running ? "yes" : "no")"
                                                     : "managed: no (no systemd user manager reads \(unit.unitDirectory))")
                context.console.result("lingering: \(state.lingering ? "on" : "off")")
            }
            guard state.installed else {
                context.console.note("error: \(unit.path): the daemon's service is not installed; 'voicealarm service install' installs and starts it")
                return .failure
            }
            guard !state.managed || state.running else {
                context.console.note("error: \(unit.name): installed but not running; 'systemctl --user start \(unit.name)' starts it")
                return .failure
            }
            return .success
        default:
            preconditionFailure("unhandled \(parsed.command ?? "")")
        }
        return .success
    }

    /// `{"unit", "installed", "managed", "enabled", "running", "lingering"}` (and `"cannotWake"`
    /// after an install on a machine where the daemon cannot wake it from suspend).
    struct StatusJSON: Encodable {
        var unit: String, installed: Bool, managed: Bool, enabled: Bool, running: Bool, lingering: Bool, cannotWake: Nullable<String>
        init(_ path: String, installed: Bool, managed: Bool, enabled: Bool, running: Bool, lingering: Bool, cannotWake: String?) {
            unit = path
            self.installed = installed
            self.managed = managed
            self.enabled = enabled
            self.running = running
            self.lingering = lingering
            self.cannotWake = .init(cannotWake)
        }
    }
}
