import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm batch MANIFEST --out DIR`: ringtones for every playlist of a manifest, for pipelines.
enum BatchCommand: Command {
    static let spec = CommandSpec(
        name: "batch", summary: "Build the ringtones of a manifest into a folder, in parallel and incrementally",
        arguments: "MANIFEST.json --out DIR", minimumArguments: 1, maximumArguments: 1,
        options: [out, BatchCommands.jobs, shard, shards, verify] + RenderOptions.all,
        discussion: """
              Manifest: {"format": "m4a", "ringtones": [{"id": "morning-01", "clips": ["a.mp3", "b.wav"]}]}; clip paths
              are relative to the manifest or absolute. format, codec, cap, gap, trimSilence, normalize and
              targetLufs may be set for the manifest and per ringtone (ringtone > manifest > command line >
              default). A ringtone whose inputs' bytes and settings did not change since it was built is skipped
              (content hashes are recorded in DIR/.voicealarm-batch.d/); identical ringtones are built once. A ringtone
              with an unusable clip fails alone, and its old file is removed. Exit 1 when any failed.
              Shards: N processes (a Kubernetes Indexed Job, a Slurm array, an AWS Batch array job) share one
              --out; each builds the ringtones whose SHA-256 of settings and clip list falls in its shard. The index
              is --shard K/N, else JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID (with _MIN, _STEP, _COUNT) or
              AWS_BATCH_JOB_ARRAY_INDEX (0-based), the count --shards N or SLURM_ARRAY_TASK_COUNT. Each shard writes
              its own index (shard-K-of-N.json); all are read, so any shard skips what any shard built.
              --verify (after all shards) checks without encoding and lists what is missing or stale.
              --json prints {"built": [id], "skipped": [id], "failed": [{"id", "error"}], "warnings": [{"id",
              "warning"}], "ringtones": [{"id", "output", "duration", "clips", "shortfall"}], "shard", "seconds"}; with --verify
              {"ok", "checked", "missing": [{"id", "reason"}], "stale": [{"id", "reason"}]}.
            """,
        examples: [
            "voicealarm batch playlists.json --out ringtones/", "voicealarm batch playlists.json --out caf/ --format caf --jobs 4 --json",
            "voicealarm batch playlists.json --out /shared/ringtones --shard 2/4",
            "voicealarm batch playlists.json --out /shared/ringtones --verify",
        ])
    static let out: Option<String?> = .text("out", value: "DIR", kind: .directory, help: "Where the ringtones go, as DIR/<id>.<ext> (created if missing)")
    static let shard: Option<String?> = .text("shard", value: "K/N", help: "Build only shard K of N (1-based); default: the job engine's index, if any")
    static let shards: Option<String?> = .text(
        "shards", value: "N", help: "The shard count, with an engine index that does not carry one (Kubernetes, AWS Batch)")
    static let verify = Flag("verify", help: "Build nothing: check that every ringtone is present and up to date (exit 1 if not)")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let jobs = Int(try parsed[BatchCommands.jobs])
        guard let out = try parsed[Self.out] else {
            throw UsageError("missing \(Self.out.spec.usage) (where the ringtones go)", command: spec.name, input: Self.out.spec.dashed)
        }
        let format = try parsed[RenderOptions.format] ?? .m4a
        let base = try RenderOptions.settings(from: parsed, format: format)
        let (shardText, shardsText) = (try parsed[Self.shard], try parsed[Self.shards])
        let shard: ShardSpec
        do {
            shard = try ShardSpec.resolve(
                option: shardText, count: shardsText,
                environment: parsed[Self.verify] ? [:] : ProcessInfo.processInfo.environment)
        } catch {
            throw UsageError(error.reason, command: spec.name)
        }
        let manifest = try BatchBuilder.manifest(at: parsed.arguments[0], base: base)
        let directory = LibraryAccess.absolute(out)
        if parsed[Self.verify] { return try verify(manifest, directory, shard, context) }

        if shard.isSharded {
            let count = BatchBuilder.items(of: manifest, in: shard).count
            context.say("Shard \(shard.index) of \(shard.count) (from \(shard.source.rawValue)): \(count) of \(manifest.items.count) ringtones.")
        }
        let bar = ProgressBar(console: context.console, enabled: context.console.errIsTerminal && !context.quiet)
        let report = try BatchBuilder(manifest: manifest, outputDirectory: directory, jobs: jobs, shard: shard, now: context.now, progress: bar.show).run()
        bar.finish()
        if context.json { context.console.result(JSONOutput.encode(report)) }
        for failure in report.failed { context.console.note("error: \(failure.id): \(failure.error)") }
        let built = Set(report.built)
        for warning in report.warnings where built.contains(warning.id) && !context.quiet {
            context.console.note("warning: \(warning.id): \(warning.warning)")
        }
        context.say(
            String(
                format: "Built %d, skipped %d unchanged, %d failed, in %.2f s.", report.built.count, report.skipped.count, report.failed.count, report.seconds))
        return report.failed.isEmpty ? .success : .failure
    }

    /// `--verify`: what is missing or stale, one per line on stdout (or the verdict as JSON).
    private static func verify(_ manifest: BatchManifest, _ directory: String, _ shard: ShardSpec, _ context: CommandContext) throws -> ExitCode {
        let verdict = try BatchVerifier(manifest: manifest, outputDirectory: directory, shard: shard).verify()
        if context.json {
            context.console.result(JSONOutput.encode(verdict))
        } else {
            for entry in verdict.missing { context.console.result("missing \(entry.id): \(entry.reason)") }
            for entry in verdict.stale { context.console.result("stale \(entry.id): \(entry.reason)") }
        }
        context.say(
            verdict.ok
                ? "All \(verdict.checked) ringtones are in place and up to date."
                : "\(verdict.missing.count) missing and \(verdict.stale.count) stale of \(verdict.checked) ringtones.")
        return verdict.ok ? .success : .failure
    }
}
