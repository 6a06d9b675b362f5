import VoiceAlarmDocuments

/// `voicealarm clip remove CLIP...`: clips out of the library and every playlist.
enum ClipRemoveCommand: Command {
    static let spec = CommandSpec(
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

    static let force = Flag("force", short: "f", help: "Remove clips that alarms play (their ringtones change)")
    static let yes = Flag("yes", short: "y", help: "The same as \(force.spec.dashed)")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let force = parsed[Self.force] || parsed[Self.yes]
        let service = try context.library()
        let removed = try service.clips.remove(parsed.arguments, force: force)
        let ids = removed.clips.map(\.idString)
        context.present(RemovedJSON(removed: ids, targets: removed.targets.map(\.description), rebuilds: RebuildJSON(removed.summary))) {
            for id in ids { context.console.result(id) }
        }
        let names = removed.clips.map { "\($0.idString) (\($0.title))" }.joined(separator: ", ")
        context.say(
            "Removed clip\(ids.count == 1 ? "" : "s") \(names)"
                + (removed.targets.isEmpty ? "." : " from \(removed.targets.map(\.description).joined(separator: ", "))."))
        return Report.rebuilds(removed.summary, context)
    }
}
