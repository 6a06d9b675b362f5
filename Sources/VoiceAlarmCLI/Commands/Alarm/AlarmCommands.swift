import VoiceAlarmDocuments

/// `voicealarm alarm …`, `voicealarm voice on|off`, `voicealarm scheduler list`: the alarms and
/// what the scheduler holds of them, in the order help lists them.
enum AlarmCommands: CommandGroup {
    static let commands: [any Command.Type] = [
        AlarmAddCommand.self, AlarmListCommand.self, AlarmRemoveCommand.self, AlarmEditCommand.self,
        VoiceOnCommand.self, VoiceOffCommand.self, SchedulerListCommand.self,
    ]

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
