/// `voicealarm ring`, `stop`, `snooze`, `listen`: the alarm making sound. Each command is its own
/// type; this is their place in the command table, in the order help lists them.
enum RingCommands {
    static let table: [(CommandSpec, VoiceAlarmTool.Handler)] = [
        (RingCommand.spec, RingCommand.run),
        (StopCommand.spec, StopCommand.run),
        (SnoozeCommand.spec, SnoozeCommand.run),
        (ListenCommand.spec, ListenCommand.run),
    ]
}
