import VoiceAlarmDocuments

/// `voicealarm clip replace CLIP FILE`: new audio for a clip; its alarms are rebuilt.
enum ClipReplaceCommand: Command {
    static let spec = CommandSpec(
        name: "clip replace", summary: "Give a clip new audio; its alarms are rebuilt", arguments: "CLIP FILE",
        minimumArguments: 2, maximumArguments: 2, options: [],
        discussion: "  Every alarm whose playlist or manifesto uses the clip gets a new ringtone and is re-scheduled.",
        examples: ["voicealarm clip replace 3f2a9c1e calm-take2.wav"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let service = try context.library()
        let (clip, summary) = try service.clips.replace(parsed.arguments[0], with: parsed.arguments[1])
        context.present(ReplacedJSON(clip: ClipJSON(clip, service), rebuilds: RebuildJSON(summary))) { context.console.result(clip.idString) }
        context.say(String(format: "Clip %@ now holds %.2f s of new audio.", clip.idString, clip.duration))
        return Report.rebuilds(summary, context)
    }

    /// `clip replace --json`: `{"clip", "rebuilds"}`.
    struct ReplacedJSON: Encodable { var clip: ClipJSON; var rebuilds: RebuildJSON }
}
