import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm playlist add NAME CLIP...`: clips appended; the playlist's alarms are rebuilt.
enum PlaylistAddCommand: Command {
    static let spec = CommandSpec(
        name: "playlist add", summary: "Append clips to a playlist", arguments: "NAME CLIP...",
        minimumArguments: 2, maximumArguments: nil, options: [], examples: ["voicealarm playlist add morning 3f2a9c1e"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let args = parsed.arguments
        let service = try context.library()
        let summary = try service.playlists.append(to: args[0], clips: Array(args.dropFirst()))
        return try PlaylistCommands.edited(.playlist(args[0]), summary, service, context)
    }
}
