/// `voicealarm alarm …`, `voicealarm voice on|off`, `voicealarm scheduler list`: the alarms and
/// what the scheduler holds of them, in the order help lists them.
enum AlarmCommands: CommandGroup {
    static let commands: [any Command.Type] = [
        AlarmAddCommand.self, AlarmListCommand.self, AlarmRemoveCommand.self, AlarmEditCommand.self,
        VoiceOnCommand.self, VoiceOffCommand.self, SchedulerListCommand.self,
    ]
}
