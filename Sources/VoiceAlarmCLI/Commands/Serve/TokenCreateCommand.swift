import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmHTTP
import VoiceAlarmWeb

/// `voicealarm token create NAME`: a token for a script, shown once.
enum TokenCreateCommand: Command {
    static let spec = CommandSpec(
        name: "token create", summary: "Make a token for a script (Authorization: Bearer TOKEN); prints it once", arguments: "NAME",
        minimumArguments: 1, maximumArguments: 1, options: [],
        discussion: "  The token is shown only now (only a digest is kept). 'serve devices' lists it, 'serve revoke' ends it.",
        examples: ["TOKEN=$(voicealarm token create backup-script)"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let service = try context.library()
        let (device, token) = try ServeCommands.registry(service).createToken(name: parsed.arguments[0])
        context.present(TokenJSON(id: device.id.uuidString.lowercased(), name: device.name, token: token)) { context.console.result(token) }
        context.say(
            "Made a token for \(device.name): send it as 'Authorization: Bearer TOKEN'. It is shown only now; 'voicealarm serve revoke \(device.id.uuidString.lowercased().prefix(8))' ends it."
        )
        return .success
    }

    /// `token create --json`: `{"id", "name", "token"}`.
    struct TokenJSON: Encodable { var id: String, name: String, token: String }
}
