import Foundation
import VoiceAlarm
import VoiceAlarmCore

/// `voicealarm batch` (ringtones for a manifest) and `voicealarm build` (for the library's alarms).
enum BatchCommands {
    static let batchSpec = CommandSpec(
        name: "batch", summary: "Build the ringtones of a manifest into a folder, in parallel and incrementally",
        arguments: "MANIFEST.json --out DIR", minimumArguments: 1, maximumArguments: 1,
        options: [
            OptionSpec("out", value: "DIR", help: "Where the ringtones go, as DIR/<id>.<ext> (created if missing)"),
            OptionSpec("jobs", short: "j", value: "N", help: "Ringtones built at once (default: the number of cores)"),
        ] + RenderCommand.renderOptions,
        discussion: """
          Manifest: {"format": "m4a", "ringtones": [{"id": "morning-01", "clips": ["a.mp3", "b.wav"]}]}; clip paths
          are relative to the manifest or absolute. format, codec, cap, gap, trimSilence, normalize and
          targetLufs may be set for the manifest and per ringtone (ringtone > manifest > command line >
          default). A ringtone whose inputs' bytes and settings did not change since it was built is skipped
          (DIR/.voicealarm-batch.json records content hashes); identical ringtones are built once. A ringtone
          with an unusable clip fails alone, and its old file is removed. Exit 1 when any failed.
          --json prints {"built", "skipped", "failed": [{"id", "error"}], "seconds"}.
        """,
        examples: ["voicealarm batch playlists.json --out ringtones/", "voicealarm batch playlists.json --out caf/ --format caf --jobs 4 --json"])
    static let buildSpec = CommandSpec(
        name: "build", summary: "Rebuild the ringtones of the library's alarms (all, or some targets')", arguments: "[--all | TARGET...]",
        minimumArguments: 0, maximumArguments: nil,
        options: [
            OptionSpec("all", help: "Every alarm (the default when no target is named)"),
            OptionSpec("jobs", short: "j", value: "N", help: "Ringtones built at once (default: the number of cores)"),
        ],
        discussion: #"  Unchanged ringtones are not rewritten. --json prints {"built", "skipped", "failed", "seconds"}."#,
        examples: ["voicealarm build --all", "voicealarm build morning manifesto --json"])

    static let specs = [batchSpec, buildSpec]

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let jobs = Int(try parsed.number("jobs", in: 1...256, default: Double(ProcessInfo.processInfo.activeProcessorCount)))
        let outcome = parsed.command == batchSpec.name ? try batch(parsed, context, jobs: jobs) : try build(parsed, context, jobs: jobs)
        if context.json { context.console.result(JSONOutput.encode(outcome)) }
        for failure in outcome.failed { context.console.note("error: \(failure.id): \(failure.error)") }
        context.say(String(format: "Built %d, skipped %d unchanged, %d failed, in %.2f s.", outcome.built, outcome.skipped, outcome.failed.count, outcome.seconds))
        return outcome.failed.isEmpty ? .success : .failure
    }

    private static func batch(_ parsed: ParsedArguments, _ context: CommandContext, jobs: Int) throws -> BatchBuilder.Outcome {
        guard let out = parsed.value("out") else { throw UsageError("missing --out DIR (where the ringtones go)", command: batchSpec.name) }
        var format = RingtoneFormat.m4a
        if let name = parsed.value("format") {
            guard let requested = RingtoneFormat(rawValue: name.lowercased()) else {
                throw UsageError("--format: unknown format '\(name)' (\(RingtoneFormat.allCases.map(\.rawValue).joined(separator: ", ")))", command: batchSpec.name)
            }
            format = requested
        }
        let base = try RenderCommand.settings(from: parsed, format: format)
        let manifest = try BatchBuilder.manifest(at: parsed.arguments[0], base: base)
        let bar = ProgressBar(console: context.console, enabled: context.console.errIsTerminal && !context.quiet)
        let outcome = try BatchBuilder(manifest: manifest, outputDirectory: LibraryAccess.absolute(out), jobs: jobs, progress: bar.show).run()
        bar.finish()
        return outcome
    }

    /// The library's alarms, rebuilt by `jobs` workers (`ParallelRebuild`).
    private static func build(_ parsed: ParsedArguments, _ context: CommandContext, jobs: Int) throws -> BatchBuilder.Outcome {
        try ParallelRebuild(service: context.library(), jobs: jobs).run(targets: parsed.arguments.map(Target.init(name:)))
    }
}
