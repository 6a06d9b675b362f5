import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm manifesto show`: the manifesto recording.
enum ManifestoShowCommand: Command {
    static let spec = CommandSpec(
        name: "manifesto show", summary: "Show the manifesto recording", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [], examples: ["voicealarm manifesto show"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        try PlaylistCommands.show(.manifesto, try context.library(), context)
        return .success
    }
}
