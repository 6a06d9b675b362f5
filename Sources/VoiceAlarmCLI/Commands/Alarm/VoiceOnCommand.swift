/// `voicealarm voice on ALARM`: wake up to my voice — the alarm's voice ringtone built and used.
enum VoiceOnCommand: Command {
    static let spec = CommandSpec(
        name: "voice on", summary: "Wake up to my voice: build and use the alarm's voice ringtone", arguments: "ALARM",
        minimumArguments: 1, maximumArguments: 1, options: [], examples: ["voicealarm voice on 9c41d2e0"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        try AlarmCommands.setVoice(true, parsed, context)
    }
}
