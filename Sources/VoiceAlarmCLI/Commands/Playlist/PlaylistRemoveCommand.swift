import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm playlist remove NAME POSITION`: one clip out of a playlist (the clip stays in the library).
enum PlaylistRemoveCommand: Command {
    static let spec = CommandSpec(
        name: "playlist remove", summary: "Take the clip at POSITION (1-based) out of a playlist", arguments: "NAME POSITION",
        minimumArguments: 2, maximumArguments: 2, options: [], examples: ["voicealarm playlist remove morning 2"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let position = try parsed.integerArgument(1, named: "POSITION")
        let service = try context.library()
        let summary = try service.playlists.remove(from: parsed.arguments[0], position: position)
        return try PlaylistCommands.edited(.playlist(parsed.arguments[0]), summary, service, context)
    }
}
