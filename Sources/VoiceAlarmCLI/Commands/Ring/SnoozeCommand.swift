import Foundation
import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm snooze`: the ringing alarm put off for its snooze.
enum SnoozeCommand: Command {
    static let spec = CommandSpec(
        name: "snooze", summary: "Put the ringing alarm off for its snooze; it rings again after it", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [],
        discussion: """
              Only for alarms added with --snooze MINUTES (snooze is off by default, as in the app our
              rules come from). The ring stops and is scheduled again MINUTES later through the same
              scheduler (a dated one-off; 'alarm list' and 'scheduler list' show it), a minute later
              still if another alarm holds that minute; at most 3 times in a row. 'voicealarm stop'
              ends the ring and cancels its pending snooze (every pending snooze when nothing rings). Nothing ringing, or a ringing alarm without
              snooze or snoozed 3 times: an error, and the ring goes on. --json prints
              [{"alarm", "ringAt", "count", "left"}].
            """,
        examples: ["voicealarm snooze"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        // Where there is no library nothing of ours rings (and none is made to say so).
        guard try context.location().hasLibrary else { throw Snoozer.Refusal.nothingRinging }
        let service = try context.library()
        let snoozed = try service.snoozes.snooze()  // a refusal is exit 1 with the reason; the ring goes on
        context.present(snoozed.map { SnoozedJSON($0, service.timeZone) }) {
            for snooze in snoozed { context.console.result(snooze.alarm.uuidString.lowercased()) }
        }
        for snooze in snoozed {
            context.say(
                "Snoozed alarm \(snooze.alarm.uuidString.lowercased()): it rings again at \(LocalTimeText.clock(snooze.ringAt, service.timeZone))"
                    + (snooze.left == 0 ? "; that is the last snooze." : " (\(snooze.left) more snooze\(snooze.left == 1 ? "" : "s") left)."))
        }
        // Said even under --quiet: a snooze nothing will ring is a person not woken.
        for problem in service.sync.problems() { context.console.note("warning: \(problem.sentence(on: .terminal))") }
        return .success
    }
}
