/// `voicealarm alarm on ALARM`: an alarm turned off scheduled again, as it was.
enum AlarmOnCommand: Command {
    static let spec = CommandSpec(
        name: "alarm on", summary: "Turn an alarm on again: scheduled as it was, saying when it rings", arguments: "ALARM",
        minimumArguments: 1, maximumArguments: 1, options: [],
        examples: ["voicealarm alarm on 9c41d2e0"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        try AlarmCommands.setOn(true, parsed, context)
    }
}
