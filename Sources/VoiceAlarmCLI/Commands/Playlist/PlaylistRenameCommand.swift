import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm playlist rename OLD NEW`: a new name; its alarms follow it.
enum PlaylistRenameCommand: Command {
    static let spec = CommandSpec(
        name: "playlist rename", summary: "Rename a playlist; its alarms follow", arguments: "OLD NEW",
        minimumArguments: 2, maximumArguments: 2, options: [],
        discussion: "  The alarms keep their ids, ringtones and schedules. A name another playlist has (in any case) is refused.",
        examples: ["voicealarm playlist rename morning weekdays"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let args = parsed.arguments
        let service = try context.library()
        let renamed = try service.playlists.rename(args[0], to: args[1])
        let alarms = renamed.alarms.map { $0.uuidString.lowercased() }
        context.present(RenamedJSON(name: renamed.target.description, previousName: args[0], alarms: alarms)) {
            context.console.result(renamed.target.description)
        }
        context.say(
            "Renamed playlist '\(args[0])' to '\(renamed.target)'"
                + (alarms.isEmpty ? "." : "; its \(alarms.count) alarm\(alarms.count == 1 ? " follows" : "s follow") it."))
        return .success
    }

    /// `playlist rename --json`: `{"name", "previousName", "alarms"}`.
    struct RenamedJSON: Encodable { var name: String; var previousName: String; var alarms: [String] }
}
