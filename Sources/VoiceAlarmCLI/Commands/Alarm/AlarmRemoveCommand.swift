import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm alarm remove`: alarms and their voice files gone.
enum AlarmRemoveCommand: Command {
    static let spec = CommandSpec(
        name: "alarm remove", summary: "Remove alarms and their voice files", arguments: "ALARM...",
        minimumArguments: 1, maximumArguments: nil, options: [],
        discussion: "  Every id is checked first: one unknown id removes nothing.",
        examples: ["voicealarm alarm remove 9c41d2e0", "voicealarm alarm remove 9c41d2e0 51aa03f7"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let ids = try context.library().alarms.remove(parsed.arguments).map { $0.uuidString.lowercased() }
        context.present(["removed": ids]) { for id in ids { context.console.result(id) } }
        context.say(ids.count == 1 ? "Removed alarm \(ids[0]) and its voice file." : "Removed \(ids.count) alarms and their voice files.")
        return .success
    }
}
