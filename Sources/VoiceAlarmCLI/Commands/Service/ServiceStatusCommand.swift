import Foundation
import VoiceAlarm
import VoiceAlarmDocuments
import VoiceAlarmHTTP
import VoiceAlarmWeb

/// `voicealarm service status`: whether the daemon's service (and the web page's) is installed and running.
enum ServiceStatusCommand: Command {
    static let spec = CommandSpec(
        name: "service status", summary: "Whether the daemon's service is installed, enabled and running", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [],
        discussion: """
              --json prints {"unit", "shipped", "installed", "managed", "enabled", "running", "lingering",
              "web"}, "web" being {"unit", "shipped", "installed", "enabled", "running"} for the web page's
              service, or null when it is not installed. "shipped" is true for a unit the Debian package
              installed (/usr/lib/systemd/user), which counts as installed once enabled. Exits 1 when the
              daemon's service is not installed or not running; the web page down is only a warning.
            """,
        examples: ["voicealarm service status --json"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let daemon = try DaemonService(service: try context.library(), location: try context.location())
        let unit = daemon.current
        let state = unit.state()
        let webService = try WebService(beside: daemon), webUnit = webService.current
        let webState = webUnit.state()
        context.present(ServiceCommands.StatusJSON(daemon, web: webService, cannotWake: nil)) {
            context.console.result("unit: \(unit.path)")
            if unit.isShipped { context.console.result("shipped: yes (installed with the package; enabling it installs it)") }
            context.console.result("installed: \(state.installed ? "yes" : "no")")
            context.console.result(
                state.managed
                    ? "enabled: \(state.enabled ? "yes" : "no")\nrunning: \(state.running ? "yes" : "no")"
                    : "managed: no (no systemd user manager reads \(unit.unitDirectory))")
            context.console.result("lingering: \(state.lingering ? "on" : "off")")
            if !webState.installed {
                context.console.result("web unit: not installed")
            } else {
                context.console.result("web unit: \(webUnit.path)")
                if webState.managed {
                    context.console.result("web enabled: \(webState.enabled ? "yes" : "no")\nweb running: \(webState.running ? "yes" : "no")")
                }
            }
        }
        if webState.installed, webState.managed, !webState.running {
            context.console.note(
                "warning: \(webUnit.name): installed but not running: the web page is down; alarms still ring ('systemctl --user restart \(webUnit.name)')")
        }
        guard state.installed else {
            context.console.note(
                unit.isShipped
                    ? "error: \(unit.name): the package's daemon service is not enabled; 'voicealarm service install' enables and starts it"
                    : "error: \(unit.path): the daemon's service is not installed; 'voicealarm service install' installs and starts it")
            return .failure
        }
        guard !state.managed || state.running else {
            context.console.note("error: \(unit.name): installed but not running; 'systemctl --user start \(unit.name)' starts it")
            return .failure
        }
        return .success
    }
}
