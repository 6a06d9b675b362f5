import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm reconcile`: the scheduler made to hold exactly the library's alarms.
enum ReconcileCommand: Command {
    static let spec = CommandSpec(
        name: "reconcile", summary: "Make the scheduler hold exactly the library's alarms", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [],
        discussion: """
              Schedules stored alarms the scheduler lacks, re-schedules those it holds with a stale sound
              or schedule (or an edited or corrupt unit), cancels ours it holds that the library does not
              know, and rebuilds voice files that should exist and do not. Running it again does nothing.
              --json prints {"scheduled": [...], "updated": [...], "cancelled": [...]}.
            """,
        examples: ["voicealarm reconcile --json", "voicealarm --scheduler systemd reconcile"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let report = try context.library().sync.reconcile()
        context.present(ReconcileJSON(report)) {
            for (word, ids) in [("scheduled", report.scheduled), ("updated", report.updated), ("cancelled", report.cancelled)] {
                for id in ids { context.console.result("\(word) \(id.uuidString.lowercased())") }
            }
        }
        let count = report.scheduled.count + report.updated.count + report.cancelled.count
        context.say(
            count == 0
                ? "The scheduler already holds exactly the library's alarms."
                : "Scheduled \(report.scheduled.count), updated \(report.updated.count), cancelled \(report.cancelled.count).")
        return .success
    }

    /// `reconcile --json`: `{"scheduled", "updated", "cancelled"}`, lowercase ids.
    struct ReconcileJSON: Encodable {
        var scheduled: [String], updated: [String], cancelled: [String]
        init(_ report: ReconcileReport) {
            scheduled = report.scheduled.map { $0.uuidString.lowercased() }
            updated = report.updated.map { $0.uuidString.lowercased() }
            cancelled = report.cancelled.map { $0.uuidString.lowercased() }
        }
    }
}
