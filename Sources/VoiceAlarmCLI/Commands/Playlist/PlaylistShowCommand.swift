import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm playlist show NAME`: a playlist's clips in order.
enum PlaylistShowCommand: Command {
    static let spec = CommandSpec(
        name: "playlist show", summary: "Show a playlist's clips in order", arguments: "NAME",
        minimumArguments: 1, maximumArguments: 1, options: [], examples: ["voicealarm playlist show morning --json"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        try PlaylistCommands.show(.playlist(parsed.arguments[0]), try context.library(), context)
        return .success
    }
}
