import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmHTTP
import VoiceAlarmWeb

/// `voicealarm serve revoke DEVICE`: a paired browser or token refused from now on.
enum ServeRevokeCommand: Command {
    static let spec = CommandSpec(
        name: "serve revoke", summary: "End a paired browser or token: it is refused from now on", arguments: "DEVICE",
        minimumArguments: 1, maximumArguments: 1, options: [], examples: ["voicealarm serve revoke 5b1e09c2"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let service = try context.library()
        let device = try ServeCommands.registry(service).revoke(parsed.arguments[0])
        context.present(DeviceJSON(device, service.timeZone)) { context.console.result(device.id.uuidString.lowercased()) }
        context.say("Revoked \(device.name): it is refused from now on.")
        return .success
    }
}
