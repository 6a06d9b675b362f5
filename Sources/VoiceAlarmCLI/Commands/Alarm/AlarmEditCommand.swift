import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm alarm edit`: refused, with the remove and add lines that make the change.
enum AlarmEditCommand: Command {
    static let spec = CommandSpec(
        name: "alarm edit", summary: "Alarms are not edited: prints the remove and add lines that make the change", arguments: "ALARM",
        minimumArguments: 1, maximumArguments: 1,
        options: AlarmAddCommand.spec.options,
        discussion: """
              An alarm is removed and added again rather than edited (a new alarm gets a new id and its
              voice file is built for it). This prints the two commands for your alarm with the options
              you gave in place of its own, and changes nothing.
            """,
        examples: ["voicealarm alarm edit 9c41d2e0 --at 07:00"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        throw try refusal(parsed, context)
    }

    /// Nothing changes; the refusal carries the person's own remove and add lines, the options
    /// given replacing the alarm's own.
    private static func refusal(_ parsed: ParsedArguments, _ context: CommandContext) throws -> UsageError {
        typealias Add = AlarmAddCommand
        let message = "alarms are added and removed, never edited: fewer states to get wrong, and a stable id for every ring"
        let service = try context.library()
        guard let id = try? service.alarms.id(parsed.arguments[0]) else {
            return UsageError(
                message, command: spec.name, input: parsed.arguments[0],
                advice: [
                    "to change one, remove it and add it again:", "  voicealarm alarm remove ALARM",
                    "  voicealarm alarm add TARGET --at HH:MM [--days DAYS | --date YYYY-MM-DD]",
                ])
        }
        let alarm = try service.alarms.status(of: id).alarm
        // The alarm's own options, each replaced by the one given (as typed); in `alarm add`'s order.
        var values: [String: String] = [Add.at.spec.name: alarm.time.description]
        if let date = alarm.date {
            values[Add.date.spec.name] = date.description
        } else if !alarm.days.isEmpty {
            values[Add.days.spec.name] = alarm.days.compact
        }
        if let label = alarm.label { values[Add.label.spec.name] = label }
        if !alarm.voice { values[Add.voice.spec.name] = "off" }
        if let minutes = alarm.snoozeMinutes { values[Add.snooze.spec.name] = "\(minutes)" }
        if parsed.given(Add.days) || parsed.given(Add.date) { values[Add.days.spec.name] = nil; values[Add.date.spec.name] = nil }
        for option in Add.spec.options { if let text = parsed.text(of: option) { values[option.name] = text } }
        let add =
            (["voicealarm alarm add", Report.quoted(alarm.target.description)]
            + Add.spec.options.compactMap { option in values[option.name].map { "\(option.dashed) \(Report.quoted($0))" } }).joined(separator: " ")
        return UsageError(
            message, command: spec.name, input: parsed.arguments[0],
            advice: ["to change it, remove it and add it again:", "  voicealarm alarm remove \(alarm.idString)", "  \(add)"])
    }
}
