import VoiceAlarmDocuments

/// `voicealarm clip rename CLIP TITLE`: a new title; audio and ringtones stay.
enum ClipRenameCommand: Command {
    static let spec = CommandSpec(
        name: "clip rename", summary: "Give a clip a new title (its audio and ringtones stay)", arguments: "CLIP TITLE",
        minimumArguments: 2, maximumArguments: 2, options: [],
        examples: ["voicealarm clip rename 3f2a9c1e 'I am calm and ready'"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let service = try context.library()
        let clip = try service.clips.rename(parsed.arguments[0], to: parsed.arguments[1])
        context.present(ClipJSON(clip, service)) { context.console.result(clip.idString) }
        context.say("Clip \(clip.idString) is now called '\(clip.title)'.")
        return .success
    }
}
