import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm manifesto set CLIP`: the one recording the manifesto's alarms play.
enum ManifestoSetCommand: Command {
    static let spec = CommandSpec(
        name: "manifesto set", summary: "Make a clip the manifesto recording", arguments: "CLIP",
        minimumArguments: 1, maximumArguments: 1, options: [],
        discussion: "  The manifesto is one recording; a ringtone from it is trimmed to the cap.",
        examples: ["voicealarm manifesto set 3f2a9c1e"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let service = try context.library()
        let summary = try service.playlists.setManifesto(parsed.arguments[0])
        return try PlaylistCommands.edited(.manifesto, summary, service, context)
    }
}
