import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm playlist create NAME [CLIP...]`: a new playlist, optionally with clips.
enum PlaylistCreateCommand: Command {
    static let spec = CommandSpec(
        name: "playlist create", summary: "Create a playlist, optionally with clips", arguments: "NAME [CLIP...]",
        minimumArguments: 1, maximumArguments: nil, options: [],
        discussion: "  A clip may appear more than once. The name 'manifesto' is reserved.",
        examples: ["voicealarm playlist create morning 3f2a9c1e 7b1d04aa"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let args = parsed.arguments
        let service = try context.library()
        try service.playlists.create(args[0], clips: Array(args.dropFirst()))
        if context.json { try PlaylistCommands.show(.playlist(args[0]), service, context) } else { context.console.result(args[0]) }
        context.say("Created playlist '\(args[0])' with \(args.count - 1) clip\(args.count == 2 ? "" : "s").")
        try Report.capNote(of: .playlist(args[0]), service, context)
        return .success
    }
}
