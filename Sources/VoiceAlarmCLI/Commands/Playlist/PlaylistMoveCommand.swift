import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm playlist move NAME FROM TO`: a clip to another place (1-based positions).
enum PlaylistMoveCommand: Command {
    static let spec = CommandSpec(
        name: "playlist move", summary: "Move the clip at position FROM to position TO (1-based)", arguments: "NAME FROM TO",
        minimumArguments: 3, maximumArguments: 3, options: [], examples: ["voicealarm playlist move morning 3 1"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let from = try parsed.integerArgument(1, named: "FROM"), to = try parsed.integerArgument(2, named: "TO")
        let service = try context.library()
        let summary = try service.playlists.move(in: parsed.arguments[0], from: from, to: to)
        return try PlaylistCommands.edited(.playlist(parsed.arguments[0]), summary, service, context)
    }
}
