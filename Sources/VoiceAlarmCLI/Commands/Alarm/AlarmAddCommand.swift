import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm alarm add`: a new alarm on a playlist or the manifesto.
enum AlarmAddCommand: Command {
    static let spec = CommandSpec(
        name: "alarm add", summary: "Add an alarm on a playlist or the manifesto; prints its id", arguments: "TARGET --at HH:MM",
        minimumArguments: 1, maximumArguments: 1,
        options: [at, days, date, label, voice, snooze, skipHolidays],
        discussion: """
              Without --days or --date the alarm rings once, at the next HH:MM. At most 5 alarms per
              target; an alarm at the same hour:minute as another on a shared day is refused (two alarms
              ringing at once make Stop look broken). Days may be written as names, ranges that run
              Monday to Sunday (fri-mon is refused: write fri-sun,mon), or daily, weekdays, weekends, in
              any case. A time that a daylight-saving change skips rings at the first valid minute after
              it (said when the alarm is added). 'voicealarm alarm edit' changes an alarm by these same
              rules, keeping its id. Snooze is off unless --snooze is given: then 'voicealarm snooze'
              stops the ring and rings again MINUTES later (a minute later still if another alarm holds
              that minute), at most 3 times in a row; 'voicealarm stop' ends the ring and any pending
              snooze.
            """,
        examples: [
            "voicealarm alarm add morning --at 06:45 --days mon-fri",
            "voicealarm alarm add morning --at 09:00 --days mon,wed-fri",
            "voicealarm alarm add manifesto --at 08:00 --date 2027-01-01 --label 'New year'",
        ])

    static let at: Option<AlarmTime?> = .reading("at", value: "HH:MM", help: "When it rings, local time (00:00 to 23:59)") { text in
        guard let time = AlarmTime(parsing: text) else { throw OptionRefusal(AlarmTime.refusal(text)) }
        return time
    }
    static let days: Option<Weekdays?> = .reading(
        "days", value: "DAYS", kind: .words(["daily", "weekdays", "weekends", "mon", "tue", "wed", "thu", "fri", "sat", "sun", "mon-fri", "sat-sun"]),
        help: "Weekly on these days: mon..sun, ranges (mon-fri), lists (mon,wed-fri), daily, weekdays, weekends"
    ) { text in
        switch Weekdays.parse(text) {
        case .success(let days): return days
        case .failure(let error): throw OptionRefusal("\(error)")
        }
    }
    static let date: Option<LocalDate?> = .reading("date", value: "YYYY-MM-DD", help: "Once, on this date") { text in
        guard let date = LocalDate(parsing: text) else { throw OptionRefusal(LocalDate.refusal(text)) }
        return date
    }
    static let label: Option<String?> = .text("label", value: "TEXT", help: "A label for the alarm") { text in
        do { try AlarmLabel.check(text) } catch { return "\(error)" }
        return nil
    }
    static let voice: Option<Bool> = .choice(
        "voice", value: "on|off", help: "Wake up to my voice (default on)", [("on", true), ("off", false)],
        default: true, ignoringCase: true, refusal: { text, _ in "'\(text)' must be on or off" })
    static let snooze: Option<Int?> = .wholeNumber(
        "snooze", value: "MINUTES", in: Snooze.minutes, of: "minutes",
        help: "Let 'voicealarm snooze' put a ring off this long, {range} (default: no snooze)")

    static let skipHolidays = Flag("skip-holidays", help: "Do not ring on the holidays imported ('voicealarm holidays import')")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        guard let time = try parsed[Self.at] else {
            throw UsageError("missing \(Self.at.spec.usage)", command: spec.name, input: Self.at.spec.dashed)
        }
        let days = try parsed[Self.days] ?? []
        let date = try parsed[Self.date]
        if !days.isEmpty && date != nil {
            throw UsageError(
                "\(Self.days.spec.dashed) and \(Self.date.spec.dashed) exclude each other: an alarm is weekly or once", command: spec.name,
                input: Self.days.spec.dashed)
        }
        let voice = try parsed[Self.voice]
        let snooze = try parsed[Self.snooze]
        // The core's rule, checked before the library opens as every usage error is.
        let label = try parsed[Self.label]

        let service = try context.library()
        let buildFolderWarning = try context.location().buildFolderProblem  // before the alarm exists: a failure here changes nothing
        let added = try service.alarms.add(
            on: Target(name: parsed.arguments[0]), at: time, days: days, date: date, label: label, voice: voice, snoozeMinutes: snooze,
            skipsHolidays: parsed[Self.skipHolidays])
        let status = added.status
        var notes: [String] = []
        if let note = AlarmNotes.daylightSaving(status, service) { notes.append(note) }
        notes += service.sync.problems().map { "warning: \($0.sentence(on: .terminal))" }
        if let warning = buildFolderWarning { notes.append("warning: \(warning.sentence(libraryOpens: true))") }
        context.present(AddedJSON(alarm: AlarmJSON(status, service.timeZone), notes: notes)) { context.console.result(status.alarm.idString) }
        let when = status.next.map { Report.friendly($0, service.timeZone, now: service.now()) } ?? "never"
        context.say("Alarm \(status.alarm.idString) on \(status.alarm.target) rings next \(when), \(status.sound.playing).")
        for note in notes { context.say(note) }
        if status.alarm.voice { try Report.capNote(of: status.alarm.target, service, context) }
        if let line = AlarmNotes.snoozeOrBackup(added, on: .terminal) { context.say(line) }
        return .success
    }
}
