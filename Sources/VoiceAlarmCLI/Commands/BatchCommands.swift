import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmScheduling
import VoiceAlarmStore

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
        let path = parsed.arguments[0]
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BatchError.output(path, FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file")
        }
        let manifest: BatchManifest
        do {
            manifest = try BatchManifest(data: data, folder: (LibraryAccess.absolute(path) as NSString).deletingLastPathComponent, base: base)
        } catch let error as BatchManifestError {
            throw BatchError.output(path, error.reason)
        }
        let bar = ProgressBar(console: context.console, enabled: context.console.errIsTerminal && !context.quiet)
        let outcome = try BatchBuilder(manifest: manifest, outputDirectory: LibraryAccess.absolute(out), jobs: jobs, progress: bar.show).run()
        bar.finish()
        return outcome
    }

    /// The library's alarms, rebuilt by `jobs` workers, each with its own connection to the store.
    private static func build(_ parsed: ParsedArguments, _ context: CommandContext, jobs: Int) throws -> BatchBuilder.Outcome {
        let start = Date()
        let service = try context.library()
        let targets = try parsed.arguments.map { try service.existing(Target(name: $0)) }
        let alarms = try service.alarmStatuses().map(\.alarm).filter { targets.isEmpty || targets.contains($0.target) }
        let dataDirectory = service.store.dataDirectory, soundsPath = service.sounds.path
        let systemd = service.scheduler as? SystemdTimerScheduler   // Sendable: shared; the embedded one opens per worker
        let shared = BuildResults()
        let workers = min(jobs, max(1, alarms.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let mine = alarms.enumerated().filter { $0.offset % workers == worker }.map(\.element.id)
            guard !mine.isEmpty else { return }
            do {
                let store = try LibraryStore(dataDirectory: dataDirectory)
                let scheduler: any AlarmScheduler = try systemd ?? EmbeddedScheduler(dataDirectory: dataDirectory)
                let local = AlarmService(store: store, sounds: try SoundsDirectory(path: soundsPath), scheduler: scheduler)
                shared.add(try local.rebuild(mine))
            } catch {
                shared.fail(mine, error)
            }
        }
        var outcome = BatchBuilder.Outcome()
        let summary = shared.summary
        outcome.built = summary.rebuilt.count
        outcome.skipped = summary.unchanged.count
        for (id, reason) in summary.onDefault {
            if reason.hasPrefix("rebuild failed") || reason == "no usable recording" {
                outcome.failed.append(.init(id: id.uuidString.lowercased(), error: reason))
            } else {
                outcome.skipped += 1
            }
        }
        outcome.failed += shared.errors
        outcome.seconds = (Date().timeIntervalSince(start) * 1000).rounded() / 1000
        return outcome
    }
}

/// What the build workers did.
private final class BuildResults: @unchecked Sendable {
    private let lock = NSLock()
    private var collected = RebuildSummary()
    private var failures: [BatchBuilder.Outcome.Failure] = []

    func add(_ summary: RebuildSummary) {
        lock.withLock {
            collected.rebuilt += summary.rebuilt
            collected.unchanged += summary.unchanged
            collected.onDefault += summary.onDefault
        }
    }

    func fail(_ ids: [UUID], _ error: Error) {
        lock.withLock { failures += ids.map { .init(id: $0.uuidString.lowercased(), error: "\(error)") } }
    }

    var summary: RebuildSummary { lock.withLock { collected } }
    var errors: [BatchBuilder.Outcome.Failure] { lock.withLock { failures } }
}

/// A progress bar on a terminal: done/total, rate, time left, failures.
final class ProgressBar: @unchecked Sendable {
    let console: Console
    let enabled: Bool
    private let lock = NSLock()

    init(console: Console, enabled: Bool) {
        self.console = console
        self.enabled = enabled
    }

    func show(_ progress: BatchBuilder.Progress) {
        guard enabled, progress.total > 0 else { return }
        lock.withLock {
            let width = 30
            let filled = progress.done * width / progress.total
            let rate = progress.elapsed > 0 ? Double(progress.done) / progress.elapsed : 0
            let left = rate > 0 ? Double(progress.total - progress.done) / rate : 0
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            console.writeErr(String(format: "\r\u{1B}[2K[%@] %d/%d  %.1f/s  ETA %.0f s%@", bar, progress.done, progress.total, rate, left,
                                    progress.failed > 0 ? "  \(progress.failed) failed" : ""))
        }
    }

    func finish() { if enabled { console.writeErr("\n") } }
}
