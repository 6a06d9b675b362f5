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
        let unit = daemon.unit
        let webService = try WebService(beside: daemon)
        let removedWeb = try webService.removeIfInstalled()
        // With the web page's service gone, a daemon's service already gone is no error.
        let removeDaemon = unit.isInstalled || !removedWeb
        if removeDaemon { try unit.remove() }
        context.present(ServiceCommands.StatusJSON(daemon, web: webService, cannotWake: nil)) { context.console.result(unit.path) }
        if removedWeb { context.say("Removed \(webService.unit.name); the web page is no longer served.") }
        if removeDaemon { context.say("Removed \(unit.name); nothing rings the embedded alarms until a daemon runs.") }
        return .success
    }
}
