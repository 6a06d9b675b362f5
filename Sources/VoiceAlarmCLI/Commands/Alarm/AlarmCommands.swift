import VoiceAlarm
import VoiceAlarmDocuments

/// `voicealarm alarm …`, `voicealarm voice on|off`, `voicealarm scheduler list`: the alarms and
/// what the scheduler holds of them, in the order help lists them.
enum AlarmCommands: CommandGroup {
    static let commands: [any Command.Type] = [
        AlarmAddCommand.self, AlarmListCommand.self, AlarmRemoveCommand.self, AlarmEditCommand.self, AlarmOffCommand.self, AlarmOnCommand.self,
        AlarmSkipCommand.self, AlarmUnskipCommand.self,
        VoiceOnCommand.self, VoiceOffCommand.self, SchedulerListCommand.self,
    ]

    /// `alarm on` and `alarm off`: the switch set, the alarm's document or id printed, and when it
    /// rings next said (or that it rings nowhere).
    static func setOn(_ on: Bool, _ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let service = try context.library()
        let status = try service.alarms.setOn(on, for: parsed.arguments[0])
        context.present(AlarmJSON(status, service.timeZone)) { context.console.result(status.alarm.idString) }
        let name = "the alarm at \(status.alarm.time)" + (status.alarm.label.map { " ('\($0)')" } ?? "")
        if !on {
            context.say("Off: \(name) rings nowhere until 'voicealarm alarm on \(status.alarm.idString.prefix(8))'; its settings and voice file are kept.")
        } else if let next = status.next {
            context.say("On: \(name) rings next \(Report.friendly(next, service.timeZone, now: service.now())), \(status.sound.playing).")
            for problem in service.sync.problems() { context.say("warning: \(problem.sentence(on: .terminal))") }
        } else {
            context.say("On: \(name) has rung already (a one-off whose time has passed): it will not ring again.")
        }
        return .success
    }

    /// `alarm skip` and `alarm unskip`: the alarm's document or id printed; what it skips and
    /// when it rings next said.
    static func presentSkips(_ status: AlarmStatus, _ service: AlarmService, _ context: CommandContext) {
        context.present(AlarmJSON(status, service.timeZone)) { context.console.result(status.alarm.idString) }
        var parts: [String] = []
        if let through = status.skips.through { parts.append("paused through \(through)") }
        if !status.skips.dates.isEmpty { parts.append("skipping " + status.skips.dates.sorted().map(\.description).joined(separator: ", ")) }
        let skipped = parts.isEmpty ? "no day skipped" : parts.joined(separator: "; ")
        let next = status.next.map { "rings next \(Report.friendly($0, service.timeZone, now: service.now()))" } ?? "does not ring"
        context.say("Alarm \(status.alarm.idString) at \(status.alarm.time): \(skipped); it \(next).")
        for problem in service.sync.problems() { context.say("warning: \(problem.sentence(on: .terminal))") }
    }

    /// `voice on` and `voice off`: the alarm's switch set, its document or id printed, and what it now plays said.
    static func setVoice(_ on: Bool, _ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let service = try context.library()
        let status = try service.alarms.setVoice(on, for: parsed.arguments[0])
        context.present(AlarmJSON(status, service.timeZone)) { context.console.result(status.alarm.idString) }
        context.say(
            on
                ? "Voice on: alarm \(status.alarm.idString) \(status.sound.playing)."
                : "Voice off: alarm \(status.alarm.idString) rings with the default tone; its voice file is deleted.")
        return .success
    }
}
