import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm playlist delete NAME`: a playlist gone (refused while alarms use it, unless `--with-alarms`).
enum PlaylistDeleteCommand: Command {
    static let spec = CommandSpec(
        name: "playlist delete", summary: "Delete a playlist (refused while alarms use it)", arguments: "NAME",
        minimumArguments: 1, maximumArguments: 1,
        options: [withAlarms],
        examples: ["voicealarm playlist delete morning --with-alarms"])

    static let withAlarms = Flag("with-alarms", help: "Remove the playlist's alarms too")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let name = parsed.arguments[0], withAlarms = parsed[Self.withAlarms]
        let service = try context.library()
        let removed = try service.playlists.delete(name, withAlarms: withAlarms)
        context.present(DeletedJSON(name: name, removedAlarms: removed.map { $0.uuidString.lowercased() })) { context.console.result(name) }
        context.say("Deleted playlist '\(name)'" + (removed.isEmpty ? "." : " and its \(removed.count) alarm\(removed.count == 1 ? "" : "s")."))
        return .success
    }
}
