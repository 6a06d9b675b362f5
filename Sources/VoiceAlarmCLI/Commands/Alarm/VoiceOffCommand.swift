import VoiceAlarmDocuments

/// `voicealarm voice off ALARM`: the default tone, and the alarm's voice file deleted.
enum VoiceOffCommand: Command {
    static let spec = CommandSpec(
        name: "voice off", summary: "Use the default tone and delete the alarm's voice file", arguments: "ALARM",
        minimumArguments: 1, maximumArguments: 1, options: [], examples: ["voicealarm voice off 9c41d2e0"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let service = try context.library()
        let status = try service.alarms.setVoice(false, for: parsed.arguments[0])
        context.present(AlarmJSON(status, service.timeZone)) { context.console.result(status.alarm.idString) }
        context.say("Voice off: alarm \(status.alarm.idString) rings with the default tone; its voice file is deleted.")
        return .success
    }
}
