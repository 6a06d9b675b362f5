import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm alarm edit ALARM`: the alarm changed under its own id, by the rules of `alarm add`.
enum AlarmEditCommand: Command {
    static let spec = CommandSpec(
        name: "alarm edit", summary: "Change an alarm's time, days, date, label, snooze or what it plays; it keeps its id",
        arguments: "ALARM", minimumArguments: 1, maximumArguments: 1,
        options: [AlarmAddCommand.at, AlarmAddCommand.days, AlarmAddCommand.date, AlarmAddCommand.label, snooze, plays, skipHolidays],
        discussion: """
              The same rules as 'alarm add', checked against the other alarms: at most 5 per target, no two
              in the same minute on a shared day, no date that has passed. --days makes it weekly, --date
              makes it once; a one-off given only a new time keeps its date while that time is still
              ahead on it, else rings at the next occurrence. --label '' takes the label away, --snooze off
              the snooze. Its voice file is kept when what it plays is unchanged, and rebuilt when --plays
              names another target. One replacement under the same id: the scheduler holds the old alarm
              or the new one, never none and never both. Prints the id; says when it rings next.
            """,
        examples: [
            "voicealarm alarm edit 9c41d2e0 --at 07:15", "voicealarm alarm edit 9c41d2e0 --days weekends --snooze off",
            "voicealarm alarm edit 9c41d2e0 --plays manifesto --label 'Big day'",
        ])
    /// A snooze in minutes, or `off`: `.some(nil)`.
    static let snooze: Option<Int??> = .reading(
        "snooze", value: "MINUTES|off", help: "Let 'voicealarm snooze' put a ring off this long (1 to 30), or off for no snooze"
    ) { (text: String) throws -> Int? in
        if text.lowercased() == "off" { return nil }
        guard let minutes = Int(text), Snooze.minutes.contains(minutes) else {
            throw OptionRefusal("'\(text)' must be a whole number of minutes from \(Snooze.minutes.lowerBound) to \(Snooze.minutes.upperBound), or off")
        }
        return minutes
    }
    static let skipHolidays: Option<Bool?> = .reading(
        "skip-holidays", value: "on|off", kind: .words(["on", "off"]), help: "Whether it rings on the holidays imported"
    ) { text in
        switch text.lowercased() {
        case "on": return true
        case "off": return false
        default: throw OptionRefusal("'\(text)' must be on or off")
        }
    }
    static let plays: Option<String?> = .text("plays", value: "TARGET", help: "What it plays from now on: a playlist, or the manifesto")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        typealias Add = AlarmAddCommand
        var edit = AlarmEdit()
        edit.time = try parsed[Add.at]
        edit.days = try parsed[Add.days]
        edit.date = try parsed[Add.date]
        if edit.days != nil && edit.date != nil {
            throw UsageError(
                "\(Add.days.spec.dashed) and \(Add.date.spec.dashed) exclude each other: an alarm is weekly or once", command: spec.name,
                input: Add.days.spec.dashed)
        }
        if parsed.given(Add.label) { edit.label = .some(try parsed[Add.label].flatMap { $0.isEmpty ? nil : $0 }) }
        if let snooze = try parsed[Self.snooze] { edit.snoozeMinutes = snooze }
        edit.target = try parsed[Self.plays].map(Target.init(name:))
        edit.skipsHolidays = try parsed[Self.skipHolidays]
        guard !edit.isEmpty else {
            throw UsageError(
                "nothing to change: give --at, --days, --date, --label, --snooze, --plays or --skip-holidays", command: spec.name, input: parsed.arguments[0])
        }
        let service = try context.library()
        let before = try service.alarms.status(of: try service.alarms.id(parsed.arguments[0]))
        let status = try service.alarms.edit(parsed.arguments[0], edit)
        context.present(AlarmJSON(status, service.timeZone)) { context.console.result(status.alarm.idString) }
        let alarm = status.alarm
        let when = alarm.date.map { "once on \($0)" } ?? alarm.days.compact
        let next = status.next.map { "rings next \(Report.friendly($0, service.timeZone, now: service.now()))" } ?? (alarm.isOn ? "has rung" : "is off")
        context.say("Alarm \(alarm.idString) on \(alarm.target) at \(alarm.time) \(when) \(next), \(status.sound.playing).")
        if before.alarm.target != alarm.target { context.say("Its ringtone was rebuilt for \(alarm.target).") }
        if let note = AlarmNotes.daylightSaving(status, service) { context.say(note) }
        for problem in service.sync.problems() { context.say("warning: \(problem.sentence(on: .terminal))") }
        if alarm.voice, before.alarm.target != alarm.target { try Report.capNote(of: alarm.target, service, context) }
        return .success
    }
}
