/// `voicealarm ring`, `stop`, `snooze`, `listen`: the alarm making sound, in the order help lists them.
enum RingCommands: CommandGroup {
    static let commands: [any Command.Type] = [RingCommand.self, StopCommand.self, SnoozeCommand.self, ListenCommand.self]
}
