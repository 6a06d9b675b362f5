import Foundation
import VoiceAlarm
import VoiceAlarmCore

/// `voicealarm clip …`: the recordings in the library.
enum ClipCommands {
    static let importSpec = CommandSpec(
        name: "clip import", summary: "Add a recording to the library; prints its id", arguments: "FILE",
        minimumArguments: 1, maximumArguments: 1,
        options: [OptionSpec("title", value: "TEXT", help: "A name for the clip (default: the file's name)")],
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
    static let removeSpec = CommandSpec(
        name: "clip remove", summary: "Remove a clip, and it from every playlist", arguments: "CLIP",
        minimumArguments: 1, maximumArguments: 1, options: [],
        discussion: """
          The clip leaves every playlist and the manifesto that use it (later clips move up) and
          their alarms are rebuilt; an alarm left with no recording rings with the default tone.
        """,
        examples: ["voicealarm clip remove 3f2a9c1e"])

    static let specs = [importSpec, replaceSpec, listSpec, removeSpec]

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        var status = ExitCode.success
        let title = try checkedTitle(parsed)   // a malformed command line is refused before the library opens
        let service = try context.library()
        switch parsed.command {
        case importSpec.name:
            let clip = try service.clips.add(parsed.arguments[0], title: title)
            context.console.result(clip.idString)
            context.say(String(format: "Imported '%@' (%.2f s) as clip %@.", clip.title, clip.duration, clip.idString))
        case replaceSpec.name:
            let (clip, summary) = try service.clips.replace(parsed.arguments[0], with: parsed.arguments[1])
            context.console.result(clip.idString)
            context.say(String(format: "Clip %@ now holds %.2f s of new audio.", clip.idString, clip.duration))
            status = Report.rebuilds(summary, context)
        case listSpec.name:
            let clips = try service.clips.all()
            if context.json {
                context.console.result(JSONOutput.encode(clips.map {
                    ClipJSON(id: $0.idString, title: $0.title, duration: Report.seconds($0.duration),
                             path: service.clips.path(of: $0))
                }))
            } else {
                for clip in clips { context.console.result(String(format: "%@  %6.2f s  %@", clip.idString, clip.duration, clip.title)) }
                if clips.isEmpty { context.say("No clips yet: add one with 'voicealarm clip import FILE'.") }
            }
        case removeSpec.name:
            let removed = try service.clips.remove(parsed.arguments[0])
            let clip = removed.clip
            context.console.result(clip.idString)
            context.say("Removed clip \(clip.idString) (\(clip.title))" + (removed.targets.isEmpty ? "." : " from \(removed.targets.map(\.description).joined(separator: ", "))."))
            status = Report.rebuilds(removed.summary, context)
        default:
            preconditionFailure("unhandled \(parsed.command ?? "")")
        }
        return status
    }

    /// `--title`, refused as a usage error when it holds control characters (as `--label` is).
    static func checkedTitle(_ parsed: ParsedArguments) throws -> String? {
        guard let title = parsed.value("title") else { return nil }
        if let problem = ClipTitle.problem(title) { throw UsageError("--title: \(problem)", command: parsed.command) }
        return title
    }

    struct ClipJSON: Encodable { var id: String; var title: String; var duration: Double; var path: String }
}
