/// `voicealarm alarm off ALARM`: the alarm kept whole and scheduled nowhere.
enum AlarmOffCommand: Command {
    static let spec = CommandSpec(
        name: "alarm off", summary: "Turn an alarm off: kept as it is, it rings nowhere until 'alarm on'", arguments: "ALARM",
        minimumArguments: 1, maximumArguments: 1, options: [],
        discussion: """
              The alarm keeps its id, time, days, target, voice switch and voice file; the scheduler holds
              neither it nor a snooze of it. It still holds its minute and counts toward the five per
              target, so 'alarm on' always brings it back. A switch apart from 'voice off'.
            """,
        examples: ["voicealarm alarm off 9c41d2e0"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        try AlarmCommands.setOn(false, parsed, context)
    }
}
