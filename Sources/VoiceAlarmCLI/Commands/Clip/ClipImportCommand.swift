import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm clip import FILE`: a recording into the library; prints its id.
enum ClipImportCommand: Command {
    static let spec = CommandSpec(
        name: "clip import", summary: "Add a recording to the library; prints its id", arguments: "FILE",
        minimumArguments: 1, maximumArguments: 1,
        options: [title, salvage],
        discussion: """
              The full recording is kept, untrimmed, as a lossless copy in the data dir, with its exact
              length and a content hash. A recording may last at most 10 minutes (refused from its
              header when it declares its length, else as soon as decoding passes 10 minutes). Files
              that are not audio, silent, inaudible (sound outside the speech band people hear from a
              bedside speaker: an 18.5 kHz or a 25 Hz tone), or not regular files (a FIFO, a device)
              are refused, and so
              is a damaged file (cut in the middle of a frame, shorter than its header says, or
              undecodable from some point) unless --salvage keeps what decodes up to the damage and
              says what was cut off.
            """,
        examples: ["voicealarm clip import calm.wav --title 'I am calm'", "voicealarm clip import cut-short.m4a --salvage"])

    static let title = ClipCommands.title(help: "A name for the clip (default: the file's name)")
    static let salvage = Flag("salvage", help: "Keep what decodes of a damaged file, up to its last whole frame, and say what was cut")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let title = try parsed[Self.title]
        let salvage = parsed[Self.salvage]
        let service = try context.library()
        let stored: ClipCatalogue.Stored
        do {
            stored = try service.clips.store(parsed.arguments[0], title: title, damage: salvage ? .keepWhatDecodes : .refuse)
        } catch let error as AudioError where !salvage && Damaged.isDamage(error) {
            throw Damaged(underlying: error)
        }
        let clip = stored.clip
        context.present(KeptClipJSON(clip, cutOff: stored.cutOff, service)) { context.console.result(clip.idString) }
        if let cut = stored.cutOff { context.say("warning: \(parsed.arguments[0]): \(cut.sentence)") }
        context.say(String(format: "Imported '%@' (%.2f s) as clip %@.", clip.title, clip.duration, clip.idString))
        return .success
    }

    /// A damaged file refused without `--salvage`: the audio layer's reason, and the flag that
    /// keeps what decodes.
    struct Damaged: Error, CustomStringConvertible, ClassifiedError {
        var underlying: AudioError

        /// A file cut off or undecodable from some point: what `--salvage` can keep.
        static func isDamage(_ error: AudioError) -> Bool {
            switch error {
            case .truncated, .corrupt: true
            default: false
            }
        }

        var description: String { "\(underlying.description); pass --salvage to keep what decodes" }
        var failureKind: FailureKind { underlying.failureKind }
        var failureInput: String? { underlying.failureInput }
    }
}
