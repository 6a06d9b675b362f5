import Foundation
import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm snooze`: the ringing alarm put off for its snooze.
enum SnoozeCommand: Command {
    static let spec = CommandSpec(
        name: "snooze", summary: "Put the ringing alarm off for its snooze; it rings again after it", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [cancel],
        discussion: """
              Only for alarms added with --snooze MINUTES (snooze is off by default, as in the app our
              rules come from). The ring stops and is scheduled again MINUTES later through the same
              scheduler (a dated one-off; 'alarm list' and 'scheduler list' show it), a minute later
              still if another alarm holds that minute; at most 3 times in a row. 'voicealarm stop'
              ends the ring and cancels its pending snooze (every pending snooze when nothing rings). Nothing ringing, or a ringing alarm without
              snooze or snoozed 3 times: an error, and the ring goes on. --json prints
              [{"alarm", "ringAt", "count", "left"}].
              --cancel ("I'm up"): every snooze waiting is cancelled outside a ring, and each alarm rings
              at its own next time; with none waiting, an error. --json prints {"cancelled": [ids]}.
            """,
        examples: ["voicealarm snooze", "voicealarm snooze --cancel"])
    static let cancel = Flag("cancel", help: "Cancel the snooze waiting (I'm up): the alarm rings at its own next time")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        // Where there is no library nothing of ours rings (and none is made to say so).
        guard try context.location().hasLibrary else { throw Snoozer.Refusal.nothingRinging }
        let service = try context.library()
        if parsed[Self.cancel] { return try cancelWaiting(service, context) }
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

    /// `snooze --cancel`: the snoozes waiting cancelled; each alarm's own next ring said.
    private static func cancelWaiting(_ service: AlarmService, _ context: CommandContext) throws -> ExitCode {
        let cancelled = try service.snoozes.cancelWaiting()
        context.present(["cancelled": cancelled.map { $0.uuidString.lowercased() }]) {
            for id in cancelled { context.console.result(id.uuidString.lowercased()) }
        }
        for id in cancelled {
            let next = (try? service.alarms.status(of: id))?.next
            context.say(
                "Cancelled the snooze of alarm \(id.uuidString.lowercased()): "
                    + (next.map { "it rings next \(Report.friendly($0, service.timeZone, now: service.now()))." } ?? "it does not ring again."))
        }
        return .success
    }
}
