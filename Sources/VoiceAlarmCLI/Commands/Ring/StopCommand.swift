import Foundation
import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm stop`: every ring of ours ended, and any pending snooze.
enum StopCommand: Command {
    static let spec = CommandSpec(
        name: "stop", summary: "Stop every alarm of ours that is ringing, and any pending snooze", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [], examples: ["voicealarm stop"])
    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let result = RingStopper.stop(in: try context.location(), open: { try context.library() })
        let document = StoppedJSON(result)
        for warning in document.warnings { context.console.note("warning: \(warning)") }
        let stopped = document.stopped, cancelled = document.snoozesCancelled
        context.present(document) { for id in stopped { context.console.result(id) } }
        context.say(stopped.isEmpty ? "Nothing of ours is ringing." : "Stopped \(stopped.count) ringing alarm\(stopped.count == 1 ? "" : "s").")
        if !cancelled.isEmpty { context.say("Cancelled the pending snooze of \(cancelled.joined(separator: ", ")).") }
        return .success
    }
}
