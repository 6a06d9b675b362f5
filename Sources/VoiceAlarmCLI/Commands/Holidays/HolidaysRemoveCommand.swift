import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm holidays remove [NAME]`: a calendar's holidays, or every one, removed.
enum HolidaysRemoveCommand: Command {
    static let spec = CommandSpec(
        name: "holidays remove", summary: "Remove the holidays of one calendar, or all of them", arguments: "[NAME]",
        minimumArguments: 0, maximumArguments: 1, options: [],
        discussion: "  Alarms that skip holidays ring on those days again, re-scheduled at once. --json: {\"removed\": DAYS}.",
        examples: ["voicealarm holidays remove holidays-de", "voicealarm holidays remove"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let name = parsed.arguments.first
        let removed = try context.library().holidays.remove(name)
        context.present(["removed": removed]) { context.console.result("\(removed)") }
        context.say(
            "Removed \(removed) holiday\(removed == 1 ? "" : "s")\(name.map { " of '\($0)'" } ?? ""): alarms that skipped them ring on those days again.")
        return .success
    }
}
