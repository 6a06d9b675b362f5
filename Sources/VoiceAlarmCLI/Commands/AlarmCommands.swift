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
            OptionSpec("days", value: "DAYS", help: "Weekly on these days: mon..sun, ranges (mon-fri), lists (mon,wed-fri), daily, weekdays, weekends",
                       choices: ["daily", "weekdays", "weekends", "mon", "tue", "wed", "thu", "fri", "sat", "sun", "mon-fri", "sat-sun"]),
            OptionSpec("date", value: "YYYY-MM-DD", help: "Once, on this date"),
            OptionSpec("label", value: "TEXT", help: "A label for the alarm"),
            OptionSpec("voice", value: "on|off", help: "Wake up to my voice (default on)", choices: ["on", "off"]),
            OptionSpec("snooze", value: "MINUTES", help: "Let 'voicealarm snooze' put a ring off this long, 1 to 30 (default: no snooze)"),
        ],
        discussion: """
          Without --days or --date the alarm rings once, at the next HH:MM. At most 5 alarms per
          target; an alarm at the same hour:minute as another on a shared day is refused (two alarms
          ringing at once make Stop look broken). Days may be written as names, ranges that run
          Monday to Sunday (fri-mon is refused: write fri-sun,mon), or daily, weekdays, weekends, in
          any case. A time that a daylight-saving change skips rings at the first valid minute after
          it (said when the alarm is added). Alarms are added and removed, never edited. Snooze is
          off unless --snooze is given: then 'voicealarm snooze' stops the ring and rings again
          MINUTES later (a minute later still if another alarm holds that minute), at most 3
          times in a row; 'voicealarm stop' ends the ring and any pending snooze.
        """,
        examples: ["voicealarm alarm add morning --at 06:45 --days mon-fri",
                   "voicealarm alarm add morning --at 09:00 --days mon,wed-fri",
                   "voicealarm alarm add manifesto --at 08:00 --date 2027-01-01 --label 'New year'"])
    static let listSpec = CommandSpec(
        name: "alarm list", summary: "List alarms, what each will play, and when next", arguments: "",
        minimumArguments: 0, maximumArguments: 0,
        options: [OptionSpec("all", short: "a", help: "Also list one-off alarms that have rung (hidden otherwise)")],
        discussion: """
          One line per alarm: the short id (any unique 8 or more characters of an id are accepted),
          the time, the days, the target, the next ring and the sound. --json gives the full ids.
        """,
        examples: ["voicealarm alarm list", "voicealarm alarm list --all --json"])
    static let removeSpec = CommandSpec(
        name: "alarm remove", summary: "Remove alarms and their voice files", arguments: "ALARM...",
        minimumArguments: 1, maximumArguments: nil, options: [],
        discussion: "  Every id is checked first: one unknown id removes nothing.",
        examples: ["voicealarm alarm remove 9c41d2e0", "voicealarm alarm remove 9c41d2e0 51aa03f7"])
    static let editSpec = CommandSpec(
        name: "alarm edit", summary: "Alarms are not edited: prints the remove and add lines that make the change", arguments: "ALARM",
        minimumArguments: 1, maximumArguments: 1,
        options: addSpec.options,
        discussion: """
          An alarm is removed and added again rather than edited (a new alarm gets a new id and its
          voice file is built for it). This prints the two commands for your alarm with the options
          you gave in place of its own, and changes nothing.
        """,
        examples: ["voicealarm alarm edit 9c41d2e0 --at 07:00"])
    static let voiceOnSpec = CommandSpec(
        name: "voice on", summary: "Wake up to my voice: build and use the alarm's voice ringtone", arguments: "ALARM",
        minimumArguments: 1, maximumArguments: 1, options: [], examples: ["voicealarm voice on 9c41d2e0"])
    static let voiceOffSpec = CommandSpec(
        name: "voice off", summary: "Use the default tone and delete the alarm's voice file", arguments: "ALARM",
        minimumArguments: 1, maximumArguments: 1, options: [], examples: ["voicealarm voice off 9c41d2e0"])
    static let schedulerListSpec = CommandSpec(
        name: "scheduler list", summary: "What the scheduler holds: each alarm's sound and next ring time", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [], examples: ["voicealarm scheduler list --json"])

    static let specs = [addSpec, listSpec, removeSpec, editSpec, voiceOnSpec, voiceOffSpec, schedulerListSpec]

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        switch parsed.command {
        case addSpec.name: return try add(parsed, context)
        case listSpec.name:
            let service = try context.library()
            let all = try service.alarms.statuses()
            let statuses = parsed.has("all") ? all : all.filter { $0.next != nil || $0.alarm.date == nil }
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
                context.say("\(hidden) one-off alarm\(hidden == 1 ? " has" : "s have") rung and \(hidden == 1 ? "is" : "are") hidden; 'alarm list --all' shows \(hidden == 1 ? "it" : "them").")
            }
        case removeSpec.name:
            let ids = try context.library().alarms.remove(parsed.arguments).map { $0.uuidString.lowercased() }
            context.present(["removed": ids]) { for id in ids { context.console.result(id) } }
            context.say(ids.count == 1 ? "Removed alarm \(ids[0]) and its voice file." : "Removed \(ids.count) alarms and their voice files.")
        case editSpec.name:
            throw try editRefusal(parsed, context)
        case voiceOnSpec.name, voiceOffSpec.name:
            let on = parsed.command == voiceOnSpec.name
            let service = try context.library()
            let status = try service.alarms.setVoice(on, for: parsed.arguments[0])
            context.present(AlarmJSON(status, service.timeZone)) { context.console.result(status.alarm.idString) }
            context.say(on ? "Voice on: alarm \(status.alarm.idString) \(playing(status.sound))."
                           : "Voice off: alarm \(status.alarm.idString) rings with the default tone; its voice file is deleted.")
        case schedulerListSpec.name:
            let service = try context.library()
            let scheduled = try service.sync.scheduled()
            let now = service.now()
            context.present(scheduled.map { ScheduledJSON($0, now: now, timeZone: service.timeZone) }) {
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
        guard let atText = parsed.value("at") else { throw UsageError("missing --at HH:MM", command: addSpec.name, input: "--at") }
        guard let time = AlarmTime(parsing: atText) else {
            throw UsageError("--at: '\(atText)' is not a time (HH:MM, 00:00 to 23:59)", command: addSpec.name, input: "--at")
        }
        var days: Weekdays = []
        if let text = parsed.value("days") {
            switch Weekdays.parse(text) {
            case .success(let parsedDays): days = parsedDays
            case .failure(let error): throw UsageError("--days: \(error)", command: addSpec.name, input: "--days")
            }
        }
        var date: LocalDate?
        if let text = parsed.value("date") {
            guard let parsedDate = LocalDate(parsing: text) else {
                throw UsageError("--date: '\(text)' is not a date (YYYY-MM-DD)", command: addSpec.name, input: "--date")
            }
            date = parsedDate
        }
        if !days.isEmpty && date != nil { throw UsageError("--days and --date exclude each other: an alarm is weekly or once", command: addSpec.name, input: "--days") }
        var voice = true
        if let text = parsed.value("voice") {
            switch text.lowercased() {
            case "on": voice = true
            case "off": voice = false
            default: throw UsageError("--voice: '\(text)' must be on or off", command: addSpec.name, input: "--voice")
            }
        }
        var snooze: Int?
        if let text = parsed.value("snooze") {
            guard let minutes = Int(text), Snooze.minutes.contains(minutes) else {
                throw UsageError("--snooze: '\(text)' is not a whole number of minutes from \(Snooze.minutes.lowerBound) to \(Snooze.minutes.upperBound)",
                                 command: addSpec.name, input: "--snooze")
            }
            snooze = minutes
        }
        let label = parsed.value("label")
        if let label {
            // The core's rule, checked before the library opens as every usage error is.
            do { try AlarmLabel.check(label) } catch { throw UsageError("--label: \(error)", command: addSpec.name, input: "--label") }
        }

        let service = try context.library()
        let buildFolderWarning = try context.location().buildFolderProblem   // before the alarm exists: a failure here changes nothing
        let added = try service.alarms.add(on: Target(name: parsed.arguments[0]), at: time, days: days, date: date, label: label, voice: voice, snoozeMinutes: snooze)
        let status = added.status
        var notes: [String] = []
        if let skipped = status.alarm.schedule.firstSkippedRing(after: service.now(), in: service.timeZone) {
            notes.append("note: \(status.alarm.time) does not exist on \(skipped.date) in \(service.timeZone.identifier) (a daylight-saving change skips it); that day the alarm rings at \(LocalTimeText.clock(skipped.ringsAt, service.timeZone)), the first valid minute after it, so the wake-up is late rather than missed")
        }
        notes += service.sync.problems().map { "warning: \($0.sentence)" }
        if let warning = buildFolderWarning { notes.append("warning: \(warning.sentence(libraryOpens: true))") }
        context.present(AddedJSON(alarm: AlarmJSON(status, service.timeZone), notes: notes)) { context.console.result(status.alarm.idString) }
        let when = status.next.map { Report.friendly($0, service.timeZone) } ?? "never"
        context.say("Alarm \(status.alarm.idString) on \(status.alarm.target) rings next \(when), \(playing(status.sound)).")
        for note in notes { context.say(note) }
        if status.alarm.voice { try Report.capNote(of: status.alarm.target, service, context) }
        if let snooze {
            context.say("While it rings, 'voicealarm snooze' rings it again \(snooze) minute\(snooze == 1 ? "" : "s") later, at most \(Snooze.maximumRepeats) times in a row.")
        } else if added.isFirstForTarget {
            let backup = AlarmTime(hour: (time.hour + (time.minute + 5) / 60) % 24, minute: (time.minute + 5) % 60)
            context.say("Tip: this alarm has no snooze (one added with --snooze MINUTES has). Add a backup a few minutes later: voicealarm alarm add \(Report.quoted(status.alarm.target.description)) --at \(backup)\(days.isEmpty ? "" : " --days \(days.compact)")")
        }
        return .success
    }

    /// `alarm edit`: nothing changes; the refusal carries the person's own remove and add lines,
    /// the options given replacing the alarm's own.
    private static func editRefusal(_ parsed: ParsedArguments, _ context: CommandContext) throws -> UsageError {
        let message = "alarms are added and removed, never edited: fewer states to get wrong, and a stable id for every ring"
        let service = try context.library()
        guard let id = try? service.alarms.id(parsed.arguments[0]) else {
            return UsageError(message, command: editSpec.name, input: parsed.arguments[0],
                              advice: ["to change one, remove it and add it again:", "  voicealarm alarm remove ALARM",
                                       "  voicealarm alarm add TARGET --at HH:MM [--days DAYS | --date YYYY-MM-DD]"])
        }
        let alarm = try service.alarms.status(of: id).alarm
        // The alarm's own options, each replaced by the one given; in `alarm add`'s order.
        var values: [String: String] = ["at": alarm.time.description]
        if let date = alarm.date { values["date"] = date.description } else if !alarm.days.isEmpty { values["days"] = alarm.days.compact }
        if let label = alarm.label { values["label"] = label }
        if !alarm.voice { values["voice"] = "off" }
        if let minutes = alarm.snoozeMinutes { values["snooze"] = "\(minutes)" }
        if parsed.has("days") || parsed.has("date") { values["days"] = nil; values["date"] = nil }
        for option in addSpec.options.map(\.name) where parsed.has(option) { values[option] = parsed.value(option) }
        let add = (["voicealarm alarm add", Report.quoted(alarm.target.description)]
                   + addSpec.options.map(\.name).compactMap { name in values[name].map { "--\(name) \(Report.quoted($0))" } }).joined(separator: " ")
        return UsageError(message, command: editSpec.name, input: parsed.arguments[0],
                          advice: ["to change it, remove it and add it again:", "  voicealarm alarm remove \(alarm.idString)", "  \(add)"])
    }

    static func playing(_ sound: SoundResolution) -> String {
        switch sound {
        case .voice(let file): "playing your voice (\(file))"
        case .defaultTone(let reason): "with the default tone (\(reason))"
        }
    }

    /// `9c41d2e0  06:45  mon-fri     morning       next Mon 12-01 06:45  voice, snooze 9 min`, fitted to the line width.
    private static func line(_ status: AlarmStatus, id: String, _ timeZone: TimeZone, _ context: CommandContext) -> String {
        let alarm = status.alarm
        let days = alarm.date.map { "once \($0)" } ?? alarm.days.compact
        let next = status.next.map { "next " + LocalTimeText.short($0, timeZone) } ?? "rang"
        var sound = status.sound.reason.map { "default tone (\($0))" } ?? (status.spokenStandIns.isEmpty ? "voice" : "voice, with a spoken stand-in")
        if let until = status.snoozedUntil { sound = "snoozed until \(LocalTimeText.clock(until, timeZone)), " + sound }
        if let minutes = alarm.snoozeMinutes { sound += ", snooze \(minutes) min" }
        let head = "\(id)  \(alarm.time)  \(pad(days, 15))  \(pad(context.fitted(alarm.target.description, 14), 14))  \(pad(next, 21))  "
        let tail = sound + (alarm.label.map { "  '\($0)'" } ?? "")
        return head + context.fitted(tail, context.lineWidth - head.count)
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// `{"id", "target", "time", "days", "date", "label", "voice", "sound", "soundReason", "next"}`
    /// (`days` as a list of day names, `[]` for a one-off).
    struct AlarmJSON: Encodable {
        var id: String, target: String, time: String, days: [String], date: String?, label: String?
        var voice: Bool, sound: String, soundReason: String?, next: String?, spokenStandIns: [String]
        var snooze: Int?, snoozedUntil: String?

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
            spokenStandIns = status.spokenStandIns.map { $0.uuidString.lowercased() }
            snooze = alarm.snoozeMinutes
            snoozedUntil = status.snoozedUntil.map { Report.iso($0, timeZone) }
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(id, forKey: .id); try c.encode(target, forKey: .target); try c.encode(time, forKey: .time)
            try c.encode(days, forKey: .days); try c.encode(date, forKey: .date); try c.encode(label, forKey: .label)
            try c.encode(voice, forKey: .voice); try c.encode(sound, forKey: .sound)
            try c.encode(soundReason, forKey: .soundReason); try c.encode(next, forKey: .next)
            try c.encode(spokenStandIns, forKey: .spokenStandIns)
            try c.encode(snooze, forKey: .snooze); try c.encode(snoozedUntil, forKey: .snoozedUntil)
        }
        enum Keys: String, CodingKey { case id, target, time, days, date, label, voice, sound, soundReason, next, spokenStandIns, snooze, snoozedUntil }
    }

    /// `alarm add --json`: `{"alarm", "notes"}` (the daylight-saving note and warnings, as said on stderr).
    struct AddedJSON: Encodable { var alarm: AlarmJSON; var notes: [String] }

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
