import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm alarm list`: the alarms, what each plays, and when next.
enum AlarmListCommand: Command {
    static let spec = CommandSpec(
        name: "alarm list", summary: "List alarms, what each will play, and when next", arguments: "",
        minimumArguments: 0, maximumArguments: 0,
        options: [all],
        discussion: """
              One line per alarm: the short id (any unique 8 or more characters of an id are accepted),
              the time, the days, the target, the next ring and the sound. --json gives the full ids.
            """,
        examples: ["voicealarm alarm list", "voicealarm alarm list --all --json"])

    static let all = Flag("all", short: "a", help: "Also list one-off alarms that have rung (hidden otherwise)")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let service = try context.library()
        let all = try service.alarms.statuses()
        let statuses = parsed[Self.all] ? all : all.filter { !$0.hasFinished }
        context.present(statuses.map { AlarmJSON($0, service.timeZone) }) {
            // Short enough to read, long enough to name one alarm among all of them, hidden ones included.
            let length = ShortID.length(for: all.map(\.alarm.idString))
            for status in statuses {
                context.console.result(line(status, id: String(status.alarm.idString.prefix(length)), service.timeZone, context))
            }
            if all.isEmpty { context.say("No alarms yet: add one with 'voicealarm alarm add TARGET --at HH:MM'.") }
        }
        if all.count > statuses.count {
            let hidden = all.count - statuses.count
            context.say(
                "\(hidden) one-off alarm\(hidden == 1 ? " has" : "s have") rung and \(hidden == 1 ? "is" : "are") hidden; 'alarm list --all' shows \(hidden == 1 ? "it" : "them")."
            )
        }
        return .success
    }

    /// `9c41d2e0  06:45  mon-fri     morning       next Mon 12-01 06:45  voice, snooze 9 min`, fitted to the line width.
    private static func line(_ status: AlarmStatus, id: String, _ timeZone: TimeZone, _ context: CommandContext) -> String {
        let alarm = status.alarm
        let days = alarm.date.map { "once \($0)" } ?? alarm.days.compact
        let next = status.next.map { "next " + LocalTimeText.short($0, timeZone) } ?? (alarm.isOn ? "rang" : "off")
        var sound = status.sound.reason.map { "default tone (\($0))" } ?? (status.spokenStandIns.isEmpty ? "voice" : "voice, with a spoken stand-in")
        if let until = status.snoozedUntil { sound = "snoozed until \(LocalTimeText.clock(until, timeZone)), " + sound }
        if let minutes = alarm.snoozeMinutes { sound += ", snooze \(minutes) min" }
        if let through = status.skips.through { sound += ", paused through \(through)" }
        if !status.skips.dates.isEmpty { sound += ", skips " + status.skips.dates.sorted().map(\.description).joined(separator: " ") }
        let head = "\(id)  \(alarm.time)  \(pad(days, 15))  \(pad(context.fitted(alarm.target.description, 14), 14))  \(pad(next, 21))  "
        let tail = sound + (alarm.label.map { "  '\($0)'" } ?? "")
        return head + context.fitted(tail, context.lineWidth - head.count)
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
