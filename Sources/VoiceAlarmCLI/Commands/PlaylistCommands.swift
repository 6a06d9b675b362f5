import Foundation
import VoiceAlarm
import VoiceAlarmDocuments
import VoiceAlarmCore

/// `voicealarm playlist …` and `voicealarm manifesto …`: what alarms play.
enum PlaylistCommands {
    static let createSpec = CommandSpec(
        name: "playlist create", summary: "Create a playlist, optionally with clips", arguments: "NAME [CLIP...]",
        minimumArguments: 1, maximumArguments: nil, options: [],
        discussion: "  A clip may appear more than once. The name 'manifesto' is reserved.",
        examples: ["voicealarm playlist create morning 3f2a9c1e 7b1d04aa"])
    static let addSpec = CommandSpec(
        name: "playlist add", summary: "Append clips to a playlist", arguments: "NAME CLIP...",
        minimumArguments: 2, maximumArguments: nil, options: [], examples: ["voicealarm playlist add morning 3f2a9c1e"])
    static let moveSpec = CommandSpec(
        name: "playlist move", summary: "Move the clip at position FROM to position TO (1-based)", arguments: "NAME FROM TO",
        minimumArguments: 3, maximumArguments: 3, options: [], examples: ["voicealarm playlist move morning 3 1"])
    static let removeSpec = CommandSpec(
        name: "playlist remove", summary: "Take the clip at POSITION (1-based) out of a playlist", arguments: "NAME POSITION",
        minimumArguments: 2, maximumArguments: 2, options: [], examples: ["voicealarm playlist remove morning 2"])
    static let deleteSpec = CommandSpec(
        name: "playlist delete", summary: "Delete a playlist (refused while alarms use it)", arguments: "NAME",
        minimumArguments: 1, maximumArguments: 1,
        options: [withAlarms],
        examples: ["voicealarm playlist delete morning --with-alarms"])
    static let renameSpec = CommandSpec(
        name: "playlist rename", summary: "Rename a playlist; its alarms follow", arguments: "OLD NEW",
        minimumArguments: 2, maximumArguments: 2, options: [],
        discussion: "  The alarms keep their ids, ringtones and schedules. A name another playlist has (in any case) is refused.",
        examples: ["voicealarm playlist rename morning weekdays"])
    static let showSpec = CommandSpec(
        name: "playlist show", summary: "Show a playlist's clips in order", arguments: "NAME",
        minimumArguments: 1, maximumArguments: 1, options: [], examples: ["voicealarm playlist show morning --json"])
    static let listSpec = CommandSpec(
        name: "playlist list", summary: "List the playlists", arguments: "", minimumArguments: 0, maximumArguments: 0,
        options: [], examples: ["voicealarm playlist list"])
    static let manifestoSetSpec = CommandSpec(
        name: "manifesto set", summary: "Make a clip the manifesto recording", arguments: "CLIP",
        minimumArguments: 1, maximumArguments: 1, options: [],
        discussion: "  The manifesto is one recording; a ringtone from it is trimmed to the cap.",
        examples: ["voicealarm manifesto set 3f2a9c1e"])
    static let manifestoShowSpec = CommandSpec(
        name: "manifesto show", summary: "Show the manifesto recording", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [], examples: ["voicealarm manifesto show"])

    static let withAlarms = Flag("with-alarms", help: "Remove the playlist's alarms too")

    static let specs = [createSpec, addSpec, moveSpec, removeSpec, deleteSpec, renameSpec, showSpec, listSpec, manifestoSetSpec, manifestoShowSpec]

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        var status = ExitCode.success
        let service = try context.library()
        let args = parsed.arguments
        switch parsed.command {
        case createSpec.name:
            try service.playlists.create(args[0], clips: Array(args.dropFirst()))
            if context.json { try show(.playlist(args[0]), service, context) } else { context.console.result(args[0]) }
            context.say("Created playlist '\(args[0])' with \(args.count - 1) clip\(args.count == 2 ? "" : "s").")
            try Report.capNote(of: .playlist(args[0]), service, context)
        case addSpec.name:
            let summary = try service.playlists.append(to: args[0], clips: Array(args.dropFirst()))
            status = Report.rebuilds(summary, context)
            try show(.playlist(args[0]), service, context, rebuilds: summary)
            try Report.capNote(of: .playlist(args[0]), service, context)
        case moveSpec.name:
            let from = try parsed.integerArgument(1, named: "FROM"), to = try parsed.integerArgument(2, named: "TO")
            let summary = try service.playlists.move(in: args[0], from: from, to: to)
            status = Report.rebuilds(summary, context)
            try show(.playlist(args[0]), service, context, rebuilds: summary)
            try Report.capNote(of: .playlist(args[0]), service, context)
        case removeSpec.name:
            let position = try parsed.integerArgument(1, named: "POSITION")
            let summary = try service.playlists.remove(from: args[0], position: position)
            status = Report.rebuilds(summary, context)
            try show(.playlist(args[0]), service, context, rebuilds: summary)
            try Report.capNote(of: .playlist(args[0]), service, context)
        case deleteSpec.name:
            let removed = try service.playlists.delete(args[0], withAlarms: parsed[Self.withAlarms])
            context.present(DeletedJSON(name: args[0], removedAlarms: removed.map { $0.uuidString.lowercased() })) { context.console.result(args[0]) }
            context.say("Deleted playlist '\(args[0])'" + (removed.isEmpty ? "." : " and its \(removed.count) alarm\(removed.count == 1 ? "" : "s")."))
        case renameSpec.name:
            let renamed = try service.playlists.rename(args[0], to: args[1])
            let alarms = renamed.alarms.map { $0.uuidString.lowercased() }
            context.present(RenamedJSON(name: renamed.target.description, previousName: args[0], alarms: alarms)) {
                context.console.result(renamed.target.description)
            }
            context.say("Renamed playlist '\(args[0])' to '\(renamed.target)'" + (alarms.isEmpty ? "." : "; its \(alarms.count) alarm\(alarms.count == 1 ? " follows" : "s follow") it."))
        case showSpec.name:
            try show(.playlist(args[0]), service, context)
        case listSpec.name:
            let names = try service.playlists.names()
            context.present(names) {
                for name in names { context.console.result(context.fitted(name, context.lineWidth)) }
                if names.isEmpty { context.say("No playlists yet: make one with 'voicealarm playlist create NAME'.") }
            }
        case manifestoSetSpec.name:
            let summary = try service.playlists.setManifesto(args[0])
            status = Report.rebuilds(summary, context)
            try show(.manifesto, service, context, rebuilds: summary)
            try Report.capNote(of: .manifesto, service, context)
        case manifestoShowSpec.name:
            try show(.manifesto, service, context)
        default:
            preconditionFailure("unhandled \(parsed.command ?? "")")
        }
        return status
    }

    /// `{"name", "duration", "clips": [{"id", "title", "duration"}]}` (with `"rebuilds"` after an
    /// edit), or numbered lines.
    static func show(_ target: Target, _ service: AlarmService, _ context: CommandContext, rebuilds: RebuildSummary? = nil) throws {
        let resolved = try service.playlists.existing(target)
        let clips = try service.playlists.clips(of: resolved)
        let json = TargetJSON(resolved, clips: clips, rebuilds: rebuilds)
        try context.present(json) {
            let length = ShortID.length(for: try service.clips.all().map(\.idString))   // unambiguous among every clip
            for (i, clip) in clips.enumerated() {
                let head = String(format: "%d. %@  %7.2f s  ", i + 1, String(clip.idString.prefix(length)), clip.duration)
                context.console.result(head + context.fitted(clip.title, context.lineWidth - head.count))
            }
            if clips.isEmpty { context.say("\(resolved) has no recording yet: its alarms ring with the default tone.") }
        }
    }

    /// `playlist rename --json`: `{"name", "previousName", "alarms"}`.
    struct RenamedJSON: Encodable { var name: String; var previousName: String; var alarms: [String] }
}
