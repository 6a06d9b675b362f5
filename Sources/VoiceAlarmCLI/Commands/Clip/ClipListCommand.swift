import Foundation
import VoiceAlarmDocuments

/// `voicealarm clip list`: the clips, with their short ids, lengths and titles.
enum ClipListCommand: Command {
    static let spec = CommandSpec(
        name: "clip list", summary: "List the clips", arguments: "", minimumArguments: 0, maximumArguments: 0, options: [],
        examples: ["voicealarm clip list --json"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let service = try context.library()
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
        return .success
    }
}
