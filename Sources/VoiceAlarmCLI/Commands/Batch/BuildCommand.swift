import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm build [TARGET...]`: the library's alarms' ringtones rebuilt by several workers.
enum BuildCommand: Command {
    static let spec = CommandSpec(
        name: "build", summary: "Rebuild the ringtones of the library's alarms (all, or some targets')", arguments: "[--all | TARGET...]",
        minimumArguments: 0, maximumArguments: nil,
        options: [all, BatchCommands.jobs],
        discussion: #"""
              Unchanged ringtones are not rewritten. --json prints {"built", "skipped", "failed",
              "shortfalls": [{"id", "shortfall"}], "seconds"}; a ringtone built under its loudness
              target is also a warning on stderr.
            """#,
        examples: ["voicealarm build --all", "voicealarm build morning manifesto --json"])

    static let all = Flag("all", help: "Every alarm (the default when no target is named)")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let jobs = Int(try parsed[BatchCommands.jobs])
        let outcome = try ParallelRebuild(service: context.library(), jobs: jobs).run(targets: parsed.arguments.map(Target.init(name:)))
        if context.json { context.console.result(JSONOutput.encode(outcome)) }
        for failure in outcome.failed { context.console.note("error: \(failure.id): \(failure.error)") }
        context.say(
            String(format: "Built %d, skipped %d unchanged, %d failed, in %.2f s.", outcome.built, outcome.skipped, outcome.failed.count, outcome.seconds))
        return outcome.failed.isEmpty ? .success : .failure
    }
}
