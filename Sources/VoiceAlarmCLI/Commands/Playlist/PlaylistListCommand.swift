import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm playlist list`: the playlists' names.
enum PlaylistListCommand: Command {
    static let spec = CommandSpec(
        name: "playlist list", summary: "List the playlists", arguments: "", minimumArguments: 0, maximumArguments: 0,
        options: [], examples: ["voicealarm playlist list"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let names = try context.library().playlists.names()
        context.present(names) {
            for name in names { context.console.result(context.fitted(name, context.lineWidth)) }
            if names.isEmpty { context.say("No playlists yet: make one with 'voicealarm playlist create NAME'.") }
        }
        return .success
    }
}
