import Foundation
import VoiceAlarm
import VoiceAlarmDocuments
import VoiceAlarmHTTP
import VoiceAlarmWeb

/// `voicealarm service remove`: the daemon's service (and the web page's) stopped and removed.
enum ServiceRemoveCommand: Command {
    static let spec = CommandSpec(
        name: "service remove", summary: "Stop and remove the daemon's service (and the web page's, when installed)", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [], examples: ["voicealarm service remove"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let daemon = try DaemonService(service: try context.library(), location: try context.location())
        let webService = try WebService(beside: daemon)
        let removedWeb = try webService.removeIfInstalled()
        let removedHome = try HomeService(beside: daemon).removeIfInstalled()
        for unit in removedHome { context.say("Removed \(unit.name); Home Assistant no longer follows the alarms.") }
        // Whichever of the data dir's daemon units is installed (the package's is disabled, not
        // removed); with the web page's service gone, a daemon's service already gone is no error.
        let installed = [daemon.unit, daemon.other].compactMap { $0 }.filter(\.isInstalled)
        if installed.isEmpty, removedWeb.isEmpty, removedHome.isEmpty { try daemon.unit.remove() }  // throws: none is installed
        for unit in installed { try unit.remove() }
        context.present(ServiceCommands.StatusJSON(daemon, web: webService, cannotWake: nil)) { context.console.result((installed.first ?? daemon.unit).path) }
        for unit in removedWeb { context.say("\(removed(unit)); the web page is no longer served.") }
        for unit in installed { context.say("\(removed(unit)); nothing rings the embedded alarms until a daemon runs.") }
        return .success
    }

    /// What was done to `unit`: removed, or (the package's) disabled.
    private static func removed(_ unit: DaemonService.Unit) -> String {
        unit.isShipped ? "Stopped and disabled \(unit.called), which stays installed" : "Removed \(unit.name)"
    }
}
