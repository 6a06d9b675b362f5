import Foundation
import VoiceAlarm
import VoiceAlarmDocuments
import VoiceAlarmCore

/// `voicealarm voice on` and `voice off`: whether an alarm wakes you with your voice or the default tone.
enum VoiceCommand {
    static let onSpec = CommandSpec(
        name: "voice on", summary: "Wake up to my voice: build and use the alarm's voice ringtone", arguments: "ALARM",
        minimumArguments: 1, maximumArguments: 1, options: [], examples: ["voicealarm voice on 9c41d2e0"])
    static let offSpec = CommandSpec(
        name: "voice off", summary: "Use the default tone and delete the alarm's voice file", arguments: "ALARM",
        minimumArguments: 1, maximumArguments: 1, options: [], examples: ["voicealarm voice off 9c41d2e0"])
    /// `voice on` when `on`, else `voice off`.
    static func run(_ parsed: ParsedArguments, _ context: CommandContext, on: Bool) throws -> ExitCode {
        let service = try context.library()
        let status = try service.alarms.setVoice(on, for: parsed.arguments[0])
        context.present(AlarmJSON(status, service.timeZone)) { context.console.result(status.alarm.idString) }
        context.say(on ? "Voice on: alarm \(status.alarm.idString) \(status.sound.playing)."
                       : "Voice off: alarm \(status.alarm.idString) rings with the default tone; its voice file is deleted.")
        return .success
    }
}
