import Foundation
import VoiceAlarm
import VoiceAlarmCore

/// `voicealarm alarm …`, `voicealarm voice on|off`, `voicealarm scheduler list`.
enum AlarmCommands {
    static let addSpec = CommandSpec(
        name: "alarm add", summary: "Add an alarm on a playlist or the manifesto; prints its id", arguments: "TARGET --at HH:MM",
        minimumArguments: 1, maximumArguments: 1,
        options: [
            OptionSpec("at", value: "HH:MM", help: "When it rings, local time (00:00 to 23:59)"),
            OptionSpec("days", value: "DAYS", help: "Weekly on these days: mon,tue,wed,thu,fri,sat,sun",
                       choices: ["mon", "tue", "wed", "thu", "fri", "sat", "sun", "mon,tue,wed,thu,fri", "sat,sun"]),
            OptionSpec("date", value: "YYYY-MM-DD", help: "Once, on this date"),
            OptionSpec("label", value: "TEXT", help: "A label for the alarm"),
            OptionSpec("voice", value: "on|off", help: "Wake up to my voice (default on)", choices: ["on", "off"]),
        ],
        discussion: """
          Without --days or --date the alarm rings once, at the next HH:MM. At most 5 alarms per
          target; an alarm at the same hour:minute as another on a shared day is refused (two alarms
          ringing at once make Stop look broken). Alarms are added and removed, never edited.
        """,
        examples: ["voicealarm alarm add morning --at 06:45 --days mon,tue,wed,thu,fri",
                   "voicealarm alarm add manifesto --at 08:00 --date 2027-01-01 --label 'New year'"])
    static let listSpec = CommandSpec(
        name: "alarm list", summary: "List alarms, what each will play, and when next", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [], examples: ["voicealarm alarm list --json"])
    static let removeSpec = CommandSpec(
        name: "alarm remove", summary: "Remove an alarm and its voice file", arguments: "ALARM",
        minimumArguments: 1, maximumArguments: 1, options: [], examples: ["voicealarm alarm remove 9c41d2e0"])
    static let voiceOnSpec = CommandSpec(
        name: "voice on", summary: "Wake up to my voice: build and use the alarm's voice ringtone", arguments: "ALARM",
        minimumArguments: 1, maximumArguments: 1, options: [], examples: ["voicealarm voice on 9c41d2e0"])
    static let voiceOffSpec = CommandSpec(
        name: "voice off", summary: "Use the default tone and delete the alarm's voice file", arguments: "ALARM",
        minimumArguments: 1, maximumArguments: 1, options: [], examples: ["voicealarm voice off 9c41d2e0"])
    static let schedulerListSpec = CommandSpec(
        name: "scheduler list", summary: "What the scheduler holds: each alarm's sound and next ring time", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [], examples: ["voicealarm scheduler list --json"])

    static let specs = [addSpec, listSpec, removeSpec, voiceOnSpec, voiceOffSpec, schedulerListSpec]

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        switch parsed.command {
        case addSpec.name: return try add(parsed, context)
        case listSpec.name:
            let service = try context.library()
            let statuses = try service.alarms.statuses()
            if context.json {
                context.console.result(JSONOutput.encode(statuses.map { AlarmJSON($0, service.timeZone) }))
            } else {
                for status in statuses { context.console.result(line(status, service.timeZone)) }
                if statuses.isEmpty { context.say("No alarms yet: add one with 'voicealarm alarm add TARGET --at HH:MM'.") }
            }
        case removeSpec.name:
            let id = try context.library().alarms.remove(parsed.arguments[0])
            context.console.result(id.uuidString.lowercased())
            context.say("Removed alarm \(id.uuidString.lowercased()) and its voice file.")
        case voiceOnSpec.name, voiceOffSpec.name:
            let on = parsed.command == voiceOnSpec.name
            let service = try context.library()
            let status = try service.alarms.setVoice(on, for: parsed.arguments[0])
            context.console.result(status.alarm.idString)
            context.say(on ? "Voice on: alarm \(status.alarm.idString) \(playing(status.sound))."
                           : "Voice off: alarm \(status.alarm.idString) rings with the default tone; its voice file is deleted.")
        case schedulerListSpec.name:
            let service = try context.library()
            let scheduled = try service.sync.scheduled()
            let now = service.now()
            if context.json {
                context.console.result(JSONOutput.encode(scheduled.map { ScheduledJSON($0, now: now, timeZone: service.timeZone) }))
            } else {
                for alarm in scheduled {
                    let next = alarm.configuration.schedule.nextFire(after: now, in: service.timeZone)
                    context.console.result("\(alarm.id.uuidString.lowercased())  \(Report.describe(alarm.configuration.schedule))  next \(next.map { Report.iso($0, service.timeZone) } ?? "never")  sound \(alarm.configuration.sound)")
                }
                if scheduled.isEmpty { context.say("The scheduler holds no alarms.") }
            }
        default:
            preconditionFailure("unhandled \(parsed.command ?? "")")
        }
        return .success
    }

    private static func add(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        guard let atText = parsed.value("at") else { throw UsageError("missing --at HH:MM", command: addSpec.name) }
        guard let time = AlarmTime(parsing: atText) else {
            throw UsageError("--at: '\(atText)' is not a time (HH:MM, 00:00 to 23:59)", command: addSpec.name)
        }
        var days: Weekdays = []
        if let text = parsed.value("days") {
            switch Weekdays.parse(text) {
            case .success(let parsedDays): days = parsedDays
            case .failure(let error): throw UsageError("--days: '\(error.word)' is not a day (mon,tue,wed,thu,fri,sat,sun)", command: addSpec.name)
            }
        }
        var date: LocalDate?
        if let text = parsed.value("date") {
            guard let parsedDate = LocalDate(parsing: text) else {
                throw UsageError("--date: '\(text)' is not a date (YYYY-MM-DD)", command: addSpec.name)
            }
            date = parsedDate
        }
        if !days.isEmpty && date != nil { throw UsageError("--days and --date exclude each other: an alarm is weekly or once", command: addSpec.name) }
        var voice = true
        if let text = parsed.value("voice") {
            switch text.lowercased() {
            case "on": voice = true
            case "off": voice = false
            default: throw UsageError("--voice: '\(text)' must be on or off", command: addSpec.name)
            }
        }
        let label = parsed.value("label")
        if let label, label.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) {
            throw UsageError("--label: control characters (such as newlines) are not allowed", command: addSpec.name)
        }

        let service = try context.library()
        let added = try service.alarms.add(on: Target(name: parsed.arguments[0]), at: time, days: days, date: date, label: label, voice: voice)
        let status = added.status
        context.console.result(status.alarm.idString)
        let when = status.next.map { Report.friendly($0, service.timeZone) } ?? "never"
        context.say("Alarm \(status.alarm.idString) on \(status.alarm.target) rings next \(when), \(playing(status.sound)).")
        for problem in service.sync.problems() { context.say("warning: \(problem)") }
        if let warning = try context.location().buildFolderWarning { context.say("warning: \(warning)") }
        if added.isFirstForTarget {
            let backup = AlarmTime(hour: (time.hour + (time.minute + 5) / 60) % 24, minute: (time.minute + 5) % 60)
            context.say("Tip: there is no snooze. Add a backup a few minutes later: voicealarm alarm add \(Report.quoted(status.alarm.target.description)) --at \(backup)\(days.isEmpty ? "" : " --days \(days.list)")")
        }
        return .success
    }

    static func playing(_ sound: SoundResolution) -> String {
        switch sound {
        case .voice(let file): "playing your voice (\(file))"
        case .defaultTone(let reason): "with the default tone (\(reason))"
        }
    }

    private static func line(_ status: AlarmStatus, _ timeZone: TimeZone) -> String {
        let alarm = status.alarm
        let when = alarm.date.map { "once \($0)" } ?? "weekly \(alarm.days.list)"
        let next = status.next.map { Report.iso($0, timeZone) } ?? "finished"
        return "\(alarm.idString)  \(alarm.time)  \(when)  \(alarm.target)  next \(next)  sound \(status.sound.soundName)"
            + (status.sound.reason.map { " (\($0))" } ?? "") + (alarm.label.map { "  '\($0)'" } ?? "")
    }

    /// `{"id", "target", "time", "days", "date", "label", "voice", "sound", "soundReason", "next"}`.
    struct AlarmJSON: Encodable {
        var id: String, target: String, time: String, days: [String], date: String?, label: String?
        var voice: Bool, sound: String, soundReason: String?, next: String?

        init(_ status: AlarmStatus, _ timeZone: TimeZone) {
            let alarm = status.alarm
            id = alarm.idString
            target = alarm.target.description
            time = alarm.time.description
            days = alarm.days.isEmpty ? [] : alarm.days.list.split(separator: ",").map(String.init)
            date = alarm.date?.description
            label = alarm.label
            voice = alarm.voice
            sound = status.sound.soundName
            soundReason = status.sound.reason
            next = status.next.map { Report.iso($0, timeZone) }
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(id, forKey: .id); try c.encode(target, forKey: .target); try c.encode(time, forKey: .time)
            try c.encode(days, forKey: .days); try c.encode(date, forKey: .date); try c.encode(label, forKey: .label)
            try c.encode(voice, forKey: .voice); try c.encode(sound, forKey: .sound)
            try c.encode(soundReason, forKey: .soundReason); try c.encode(next, forKey: .next)
        }
        enum Keys: String, CodingKey { case id, target, time, days, date, label, voice, sound, soundReason, next }
    }

    /// `{"id", "sound", "next", "schedule"}`.
    struct ScheduledJSON: Encodable {
        var id: String, sound: String, next: String?, schedule: String

        init(_ alarm: ScheduledAlarm, now: Date, timeZone: TimeZone) {
            id = alarm.id.uuidString.lowercased()
            sound = alarm.configuration.sound.description
            next = alarm.configuration.schedule.nextFire(after: now, in: timeZone).map { Report.iso($0, timeZone) }
            schedule = Report.describe(alarm.configuration.schedule)
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(id, forKey: .id); try c.encode(sound, forKey: .sound)
            try c.encode(next, forKey: .next); try c.encode(schedule, forKey: .schedule)
        }
        enum Keys: String, CodingKey { case id, sound, next, schedule }
    }
}
