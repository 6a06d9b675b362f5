import VoiceAlarmDocuments

/// `voicealarm clip import FILE`: a recording into the library; prints its id.
enum ClipImportCommand: Command {
    static let spec = CommandSpec(
        name: "clip import", summary: "Add a recording to the library; prints its id", arguments: "FILE",
        minimumArguments: 1, maximumArguments: 1,
        options: [title],
        discussion: """
              The full recording is kept, untrimmed, as a lossless copy in the data dir, with its exact
              length and a content hash. A recording may last at most 10 minutes (refused from its
              header when it declares its length, else as soon as decoding passes 10 minutes). Files
              that are not audio, silent, or not regular files (a FIFO, a device) are refused.
            """,
        examples: ["voicealarm clip import calm.wav --title 'I am calm'"])

    static let title = ClipCommands.title(help: "A name for the clip (default: the file's name)")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let title = try parsed[Self.title]
        let service = try context.library()
        let clip = try service.clips.add(parsed.arguments[0], title: title)
        context.present(ClipJSON(clip, service)) { context.console.result(clip.idString) }
        context.say(String(format: "Imported '%@' (%.2f s) as clip %@.", clip.title, clip.duration, clip.idString))
        return .success
    }
}
