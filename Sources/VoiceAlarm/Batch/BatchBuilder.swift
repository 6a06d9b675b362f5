import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles

/// Builds the ringtones of a manifest into one folder, in parallel and incrementally — all of
/// them, or one shard's (`ShardSpec`) while other processes build the other shards into the
/// same folder.
///
/// Every core is kept busy (`jobs` workers); every input is decoded at most once
/// (`BatchClipCache`, spilled to a folder inside the output); identical ringtones are built
/// once and copied; a ringtone whose inputs' bytes and settings are unchanged since it was
/// built is skipped. A failing ringtone never stops the others.
///
/// ```swift
/// let report = try BatchBuilder(manifest: manifest, outputDirectory: "out", jobs: 2,
///                               shard: try ShardSpec.parse("2/4")).run()
/// ```
package final class BatchBuilder: Sendable {
    let manifest: BatchManifest
    let output: String
    let jobs: Int
    let shard: ShardSpec
    let progress: @Sendable (Progress) -> Void
    /// The wall clock: a run's seconds, its checkpoints, its progress.
    let now: @Sendable () -> Date

    /// - Parameters:
    ///   - shard: which part of the manifest this process builds (`ShardSpec.whole` for all of it).
    package init(
        manifest: BatchManifest, outputDirectory: String, jobs: Int, shard: ShardSpec = .whole,
        now: @escaping @Sendable () -> Date = Date.init, progress: @escaping @Sendable (Progress) -> Void = { _ in }
    ) {
        precondition(jobs > 0, "at least one job")
        self.manifest = manifest
        output = outputDirectory
        self.jobs = jobs
        self.shard = shard
        self.progress = progress
        self.now = now
    }

    /// How often, at most, a run writes its index while it builds, so a shard killed mid-way
    /// keeps what it finished.
    static let checkpointInterval: TimeInterval = 1

    /// One ringtone to build, for every item of the manifest that has its identity (`key`): it is
    /// built once and copied to the others.
    struct WorkGroup: Sendable {
        var key: String
        var items: [BatchManifest.Item]
        /// The inputs' content hashes, in the clips' order.
        var hashes: [String]
    }

    /// What a run found before building: what to build, what is unchanged, what failed already.
    struct Plan {
        var groups: [WorkGroup] = []
        var skipped: Set<String> = []
        var failed: [BatchReport.Failure] = []
    }

    /// Builds what needs building of this shard's ringtones: the output folder made and swept,
    /// the index read, the work planned (`plan`), built by `jobs` workers (`build(_:…)`), and the
    /// report made from the index (`report`).
    /// - Throws: `BatchError` when the output folder cannot be made or written (nothing is built
    ///   then); `AudioError` when FFmpeg's libraries cannot be opened (nothing is written then).
    package func run() throws -> BatchReport {
        let start = now()
        try AudioStack.load(for: output)
        AllocatorTuning.tuneForRendersSideBySide()
        try makeOutputDirectory()
        let owned = Self.items(of: manifest, in: shard)
        sweep(owned)
        let records = BatchRecords(directory: output)
        let indexPath = BatchIndex.path(of: shard, in: output)
        var index = loadIndex(indexPath, owned: owned)
        let plan = self.plan(owned, records: records, index: &index)
        for failure in plan.failed { retire(failure.id, records: records, index: &index) }
        let cache = try BatchClipCache(in: output, sampleRate: RenderSettings.defaultSampleRate, tag: cacheTag)
        let results: [(BatchManifest.Item, String, Result<RenderReport, Error>)]
        do {
            defer { cache.remove() }  // the decoded samples are no longer needed: their room is the index's
            (index, results) = build(plan, total: owned.count, cache: cache, records: records, index: index, indexPath: indexPath, start: start)
        }
        try index.save(to: indexPath)
        if !shard.isSharded { FileSystem.remove("\(output)/\(BatchIndex.legacyFileName)") }  // its records are all in ours now
        var report = self.report(owned, plan: plan, results: results, index: index)
        report.seconds = (now().timeIntervalSince(start) * 1000).rounded() / 1000
        return report
    }

    /// This shard's index, from the last run (or an earlier version's folder), with the records of
    /// ringtones that are now another shard's dropped (theirs to keep) and no inputs yet.
    private func loadIndex(_ indexPath: String, owned: [BatchManifest.Item]) -> BatchIndex {
        var index = BatchIndex.load(indexPath)
        if !shard.isSharded, FileSystem.kind(of: indexPath) == .missing {
            index = BatchIndex.load("\(output)/\(BatchIndex.legacyFileName)")  // an earlier version's folder: its records carry over
        }
        let mine = Set(owned.map(\.id))
        for item in manifest.items where !mine.contains(item.id) { index.ringtones[item.id] = nil }
        index.inputs = [:]  // refilled with this run's inputs
        return index
    }

    /// Hashes every input once and sorts the items: unchanged (skipped), to build (grouped by
    /// identity), or failed (a bad item, an input that cannot be read).
    private func plan(_ owned: [BatchManifest.Item], records: BatchRecords, index: inout BatchIndex) -> Plan {
        var plan = Plan()
        var keyed: [String: Int] = [:]
        var hashes: [String: String] = [:]  // path → sha256, this run
        for item in owned {
            if let problem = item.problem { plan.failed.append(.init(id: item.id, error: problem)); continue }
            do {
                let inputHashes = try item.clips.map { try hash($0, records: records, index: &index, seen: &hashes) }
                let key = Self.key(item.settings, inputHashes)
                let file = item.fileName
                if var previous = records.current(item.id, key: key, file: file) {
                    // Built by any shard before (or by an earlier version, which kept no stamp): this shard's now.
                    if previous.stamp == nil { previous.stamp = try? FileStamp(path: "\(output)/\(file)") }
                    index.ringtones[item.id] = previous
                    plan.skipped.insert(item.id)
                    continue
                }
                if let existing = keyed[key] {
                    plan.groups[existing].items.append(item)
                } else {
                    keyed[key] = plan.groups.count
                    plan.groups.append(WorkGroup(key: key, items: [item], hashes: inputHashes))
                }
            } catch {
                plan.failed.append(.init(id: item.id, error: SystemError.text(of: error)))
            }
        }
        return plan
    }

    /// Builds the plan's groups on `jobs` workers, recording each result in the index as it comes
    /// (saved at most every `checkpointInterval`, so a shard killed mid-way keeps what it
    /// finished) and telling the progress. The index after, and every result.
    private func build(
        _ plan: Plan, total: Int, cache: BatchClipCache, records: BatchRecords, index: BatchIndex, indexPath: String,
        start: Date
    ) -> (BatchIndex, [(BatchManifest.Item, String, Result<RenderReport, Error>)]) {
        let shared = BatchWork(done: plan.skipped.count + plan.failed.count, failed: plan.failed.count)
        let ledger = Locked((index: index, saved: now()))
        progress(Progress(done: shared.done, total: total, failed: shared.failed, elapsed: 0))
        let groups = plan.groups
        WorkerPool(workers: jobs).run(
            groups.count, open: { _ in () },
            work: { _, position in
                let group = groups[position]
                let built = self.build(group.items, hashes: group.hashes, cache: cache)
                ledger.withLock { ledger in
                    for (item, result) in built { self.record(item, key: group.key, result, records: records, index: &ledger.index) }
                    if self.now().timeIntervalSince(ledger.saved) >= Self.checkpointInterval {
                        try? ledger.index.save(to: indexPath)  // a checkpoint; the final save reports failures
                        ledger.saved = self.now()
                    }
                }
                let snapshot = shared.record(built.map { ($0.0, group.key, $0.1) })
                self.progress(Progress(done: snapshot.done, total: total, failed: snapshot.failed, elapsed: self.now().timeIntervalSince(start)))
            })
        return (ledger.withLock { $0.index }, shared.results)
    }

    /// What was built, skipped and failed, in the manifest's order, with every ringtone's record.
    private func report(
        _ owned: [BatchManifest.Item], plan: Plan, results: [(BatchManifest.Item, String, Result<RenderReport, Error>)],
        index: BatchIndex
    ) -> BatchReport {
        var report = BatchReport(shard: shard)
        report.failed = plan.failed
        var builtIDs: Set<String> = []
        for (item, _, result) in results {
            switch result {
            case .success: builtIDs.insert(item.id)
            case .failure(let error): report.failed.append(.init(id: item.id, error: SystemError.text(of: error)))
            }
        }
        let failedIDs = Set(report.failed.map(\.id))
        let position = order
        report.failed.sort { (position[$0.id] ?? 0) < (position[$1.id] ?? 0) }
        for item in owned where !failedIDs.contains(item.id) {
            if builtIDs.contains(item.id) { report.built.append(item.id) } else if plan.skipped.contains(item.id) { report.skipped.append(item.id) }
            guard let record = index.ringtones[item.id] else { continue }
            report.ringtones.append(
                .init(
                    id: item.id, output: "\(output)/\(record.file)", duration: record.duration, clips: record.clips ?? [],
                    shortfall: record.shortfall))
            if let warning = record.warning { report.warnings.append(.init(id: item.id, warning: warning)) }
        }
        return report
    }

    /// Each id's position in the manifest, for reports in its order.
    private var order: [String: Int] {
        Dictionary(manifest.items.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Records a built ringtone (and removes its files of another format), or retires a failed one.
    private func record(
        _ item: BatchManifest.Item, key: String, _ result: Result<RenderReport, Error>,
        records: BatchRecords, index: inout BatchIndex
    ) {
        guard case .success(let rendered) = result else {
            retire(item.id, records: records, index: &index)
            return
        }
        let file = item.fileName
        for previous in Set(records.ringtones(item.id).map(\.file) + [index.ringtones[item.id]?.file].compactMap { $0 }) where previous != file {
            FileSystem.remove("\(output)/\(previous)")
        }
        index.ringtones[item.id] = .init(
            key: key, file: file, bytes: rendered.bytes, stamp: try? FileStamp(path: "\(output)/\(file)"),
            duration: rendered.duration,
            clips: rendered.clips.map { .init(input: $0.input, used: $0.used, reason: $0.reason) },
            warning: RingtoneWarning.text(for: rendered, cap: item.settings.cap), shortfall: rendered.loudness.shortfall)
    }

    /// Builds one ringtone and copies it to every other id with the same identity.
    private func build(_ items: [BatchManifest.Item], hashes: [String], cache: BatchClipCache) -> [(BatchManifest.Item, Result<RenderReport, Error>)] {
        let first = items[0]
        let path = "\(output)/\(first.fileName)"
        let built = Result<RenderReport, Error> {
            let sources = zip(first.clips, hashes).map { CachedClipSource(path: $0, contentHash: $1, cache: cache) }
            return try RingtoneRenderer().render(sources, settings: first.settings, to: path)
        }
        var results = [(first, built)]
        for other in items.dropFirst() {
            results.append(
                (
                    other,
                    built.flatMap { rendered in
                        Result {
                            let target = "\(output)/\(other.fileName)"
                            do { try FileSystem.atomicCopy(path, to: target) } catch let error as SystemError {
                                throw BatchError.output(target, error.reason)
                            }
                            var copied = rendered
                            copied.output = target
                            return copied
                        }
                    }
                ))
        }
        return results
    }

    /// The content hash of an input (`BatchRecords.input`), once per run, noted in this shard's index.
    private func hash(_ path: String, records: BatchRecords, index: inout BatchIndex, seen: inout [String: String]) throws -> String {
        if let known = seen[path] { return known }
        let input = try records.input(path)
        index.inputs[path] = input
        seen[path] = input.sha256
        return input.sha256
    }

    /// The index's key for a ringtone: the SHA-256 of everything it depends on, in a canonical
    /// text (its settings and its clips' audio hashes, in order).
    static func key(_ settings: RenderSettings, _ inputHashes: [String]) -> String {
        ContentHash.sha256((["batch-v1", "p\(RenderSettings.processing)", settings.fingerprint] + inputHashes).joined(separator: "|"))
    }
}
