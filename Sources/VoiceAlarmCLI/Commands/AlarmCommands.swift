/// `voicealarm alarm …`, `voicealarm voice on|off`, `voicealarm scheduler list`: each command is
/// its own type; this is their place in the command table, in the order help lists them.
enum AlarmCommands {
    static let table: [(CommandSpec, VoiceAlarmTool.Handler)] = [
        (AlarmAddCommand.spec, AlarmAddCommand.run),
        (AlarmListCommand.spec, AlarmListCommand.run),
        (AlarmRemoveCommand.spec, AlarmRemoveCommand.run),
        (AlarmEditCommand.spec, AlarmEditCommand.run),
        (VoiceCommand.onSpec, { try VoiceCommand.run($0, $1, on: true) }),
        (VoiceCommand.offSpec, { try VoiceCommand.run($0, $1, on: false) }),
        (SchedulerListCommand.spec, SchedulerListCommand.run),
    ]
}
