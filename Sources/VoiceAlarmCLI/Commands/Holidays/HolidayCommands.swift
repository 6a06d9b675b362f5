import VoiceAlarmCore

/// `voicealarm holidays import | list | remove`: the holidays alarms set with `--skip-holidays`
/// do not ring on, in the order help lists them.
enum HolidayCommands: CommandGroup {
    static let commands: [any Command.Type] = [HolidaysImportCommand.self, HolidaysListCommand.self, HolidaysRemoveCommand.self]
}
