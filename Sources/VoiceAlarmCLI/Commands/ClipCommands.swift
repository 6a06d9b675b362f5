import Foundation
import VoiceAlarm
import VoiceAlarmDocuments
import VoiceAlarmAudio
import VoiceAlarmCore

/// `voicealarm clip …`: the recordings in the library.
enum ClipCommands {
    static let importSpec = CommandSpec(
        name: "clip import", summary: "Add a recording to the library; prints its id", arguments: "FILE",
        minimumArguments: 1, maximumArguments: 1,
        options: [importTitle],
        discussion: """
          The full recording is kept, untrimmed, as a lossless copy in the data dir, with its exact
          length and a content hash. A recording may last at most 10 minutes (refused from its
          header when it declares its length, else as soon as decoding passes 10 minutes). Files
          that are not audio, silent, or not regular files (a FIFO, a device) are refused.
        """,
        examples: ["voicealarm clip import calm.wav --title 'I am calm'"])
    static let replaceSpec = CommandSpec(
        name: "clip replace", summary: "Give a clip new audio; its alarms are rebuilt", arguments: "CLIP FILE",
        minimumArguments: 2, maximumArguments: 2, options: [],
        discussion: "  Every alarm whose playlist or manifesto uses the clip gets a new ringtone and is re-scheduled.",
        examples: ["voicealarm clip replace 3f2a9c1e calm-take2.wav"])
    static let listSpec = CommandSpec(
        name: "clip list", summary: "List the clips", arguments: "", minimumArguments: 0, maximumArguments: 0, options: [],
        examples: ["voicealarm clip list --json"])
    static let renameSpec = CommandSpec(
        name: "clip rename", summary: "Give a clip a new title (its audio and ringtones stay)", arguments: "CLIP TITLE",
        minimumArguments: 2, maximumArguments: 2, options: [],
        examples: ["voicealarm clip rename 3f2a9c1e 'I am calm and ready'"])
    static let removeSpec = CommandSpec(
        name: "clip remove", summary: "Remove clips, and them from every playlist", arguments: "CLIP...",
        minimumArguments: 1, maximumArguments: nil,
        options: [force, yes],
        discussion: """
          The clips leave every playlist and the manifesto that use them (later clips move up) and
          their alarms are rebuilt; an alarm left with no recording rings with the default tone.
          A clip that alarms play is removed only with --force (or --yes); without it, nothing is
          removed and the alarms that would fall back to the default tone are named.
          Every id is checked first: one unknown id removes nothing.
        """,
        examples: ["voicealarm clip remove 3f2a9c1e", "voicealarm clip remove 3f2a9c1e 7b1d04aa"])

    static let saySpec = CommandSpec(
        name: "clip say", summary: "Make a spoken stand-in by text to speech until you record it; prints its id", arguments: "TEXT",
        minimumArguments: 1, maximumArguments: 1,
        options: [sayTitle, voice],
        discussion: """
          An affirmation with no recording yet can still wake you: the text is spoken by eSpeak NG
          and stored like any clip, marked as a spoken stand-in ('clip list' and 'alarm list' say
          so). Record it later with 'clip record --replace CLIP' (or 'clip replace CLIP FILE'): the
          clip keeps its id and places, and exactly the alarms using it are rebuilt and
          re-scheduled with your voice. The text is one line of at most 500 characters, with
          something to say (not only punctuation).
        """,
        examples: ["voicealarm clip say 'I am calm and ready'", "voicealarm clip say 'Je suis prêt' --voice fr --title 'Prêt'"])

    static let specs = [importSpec, saySpec, replaceSpec, renameSpec, listSpec, removeSpec]

    static let importTitle = title(help: "A name for the clip (default: the file's name)")
    static let sayTitle = title(help: "A name for the clip (default: the text)")
    static let voice: Option<String?> = .text("voice", value: "VOICE", help: "An eSpeak NG voice: en (default), en-us, de, fr… ('espeak-ng --voices')")
    static let force = Flag("force", short: "f", help: "Remove clips that alarms play (their ringtones change)")
    static let yes = Flag("yes", short: "y", help: "The same as \(force.spec.dashed)")

    /// `--title`, refused as a usage error when it holds control characters (as `--label` is).
    static func title(help: String) -> Option<String?> {
        .text("title", value: "TEXT", help: help, problem: { ClipTitle.problem($0) })
    }

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        var status = ExitCode.success
        // A malformed command line is refused before the library opens.
        let title = try parsed[parsed.command == saySpec.name ? sayTitle : importTitle]
        if parsed.command == saySpec.name, let problem = SpokenText.problem(parsed.arguments[0]) {
            throw UsageError("TEXT: \(problem)", command: saySpec.name, input: parsed.arguments[0])
        }
        let service = try context.library()
        switch parsed.command {
        case saySpec.name:
            let clip: LibraryClip
            do {
                clip = try service.clips.say(parsed.arguments[0], title: title, voice: try parsed[Self.voice]).clip
            } catch SpeechSynthesizer.Failure.unknownVoice(let voice) {
                throw UsageError("\(Self.voice.spec.dashed): '\(voice)' is not an eSpeak NG voice (see 'espeak-ng --voices')", command: saySpec.name,
                                 input: Self.voice.spec.dashed)
            }
            context.present(ClipJSON(clip, service)) { context.console.result(clip.idString) }
            context.say(String(format: "Made a spoken stand-in '%@' (%.2f s) as clip %@; record it in your own voice with 'voicealarm clip record --replace %@'.",
                               clip.title, clip.duration, clip.idString, String(clip.idString.prefix(8))))
        case importSpec.name:
            let clip = try service.clips.add(parsed.arguments[0], title: title)
            context.present(ClipJSON(clip, service)) { context.console.result(clip.idString) }
            context.say(String(format: "Imported '%@' (%.2f s) as clip %@.", clip.title, clip.duration, clip.idString))
        case replaceSpec.name:
            let (clip, summary) = try service.clips.replace(parsed.arguments[0], with: parsed.arguments[1])
            context.present(ReplacedJSON(clip: ClipJSON(clip, service), rebuilds: RebuildJSON(summary))) { context.console.result(clip.idString) }
            context.say(String(format: "Clip %@ now holds %.2f s of new audio.", clip.idString, clip.duration))
            status = Report.rebuilds(summary, context)
        case renameSpec.name:
            let clip = try service.clips.rename(parsed.arguments[0], to: parsed.arguments[1])
            context.present(ClipJSON(clip, service)) { context.console.result(clip.idString) }
            context.say("Clip \(clip.idString) is now called '\(clip.title)'.")
        case listSpec.name:
            let clips = try service.clips.all()
            context.present(clips.map { ClipJSON($0, service) }) {
                let ids = ShortID.column(clips.map(\.idString))
                for (clip, id) in zip(clips, ids) {
                    let head = String(format: "%@  %7.2f s  ", id, clip.duration)
                    let title = clip.isGenerated ? "\(clip.title) (spoken stand-in)" : clip.title
                    context.console.result(head + context.fitted(title, context.lineWidth - head.count))
                }
                if clips.isEmpty { context.say("No clips yet: add one with 'voicealarm clip import FILE'.") }
            }
        case removeSpec.name:
            let removed = try service.clips.remove(parsed.arguments, force: parsed[Self.force] || parsed[Self.yes])
            let ids = removed.clips.map(\.idString)
            context.present(RemovedJSON(removed: ids, targets: removed.targets.map(\.description), rebuilds: RebuildJSON(removed.summary))) {
                for id in ids { context.console.result(id) }
            }
            let names = removed.clips.map { "\($0.idString) (\($0.title))" }.joined(separator: ", ")
            context.say("Removed clip\(ids.count == 1 ? "" : "s") \(names)" + (removed.targets.isEmpty ? "." : " from \(removed.targets.map(\.description).joined(separator: ", "))."))
            status = Report.rebuilds(removed.summary, context)
        default:
            preconditionFailure("unhandled \(parsed.command ?? "")")
        }
        return status
    }

    /// `clip replace --json`: `{"clip", "rebuilds"}`.
    struct ReplacedJSON: Encodable { var clip: ClipJSON; var rebuilds: RebuildJSON }
}
