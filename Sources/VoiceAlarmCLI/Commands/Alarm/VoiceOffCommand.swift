/// `voicealarm voice off ALARM`: the default tone, and the alarm's voice file deleted.
enum VoiceOffCommand: Command {
    static let spec = CommandSpec(
        name: "voice off", summary: "Use the default tone and delete the alarm's voice file", arguments: "ALARM",
        minimumArguments: 1, maximumArguments: 1, options: [], examples: ["voicealarm voice off 9c41d2e0"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        try AlarmCommands.setVoice(false, parsed, context)
    }
}
