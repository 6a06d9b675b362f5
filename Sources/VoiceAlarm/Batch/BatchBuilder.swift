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
    /// What a rebuild of the library's alarms did (`voicealarm build`):
    /// `{"built", "skipped", "failed": [{"id", "error"}], "seconds"}`; a batch reports a `BatchReport`.
    package struct Outcome: Encodable, Sendable {
        package struct Failure: Encodable, Sendable, Equatable {
            package var id: String
            package var error: String
            package init(id: String, error: String) {
                self.id = id
                self.error = error
            }
        }
        /// A ringtone built under its loudness target.
        package struct Shortfall: Encodable, Sendable, Equatable {
            /// The ringtone's id: the manifest's, or the alarm's UUID.
            package var id: String
            /// How far under, and why.
            package var shortfall: LoudnessShortfall
            /// The ringtone `id`, built `shortfall` under its target.
            package init(id: String, shortfall: LoudnessShortfall) {
                self.id = id
                self.shortfall = shortfall
            }
        }
        package var built = 0
        package var skipped = 0
        package var failed: [Failure] = []
        /// The ringtones built under their loudness target, and why.
        package var shortfalls: [Shortfall] = []
        package var seconds = 0.0
        package init() {}
    }

    /// Progress after each ringtone: done, total, failures so far.
    package struct Progress: Sendable {
        package var done: Int
        package var total: Int
        package var failed: Int
        package var elapsed: TimeInterval
    }

    let manifest: BatchManifest
    let output: String
    let jobs: Int
    let shard: ShardSpec
    let progress: @Sendable (Progress) -> Void

    /// - Parameters:
    ///   - shard: which part of the manifest this process builds (`ShardSpec.whole` for all of it).
    package init(manifest: BatchManifest, outputDirectory: String, jobs: Int, shard: ShardSpec = .whole,
                progress: @escaping @Sendable (Progress) -> Void = { _ in }) {
        precondition(jobs > 0, "at least one job")
        self.manifest = manifest
        output = outputDirectory
        self.jobs = jobs
        self.shard = shard
        self.progress = progress
    }

    /// The most bytes a manifest may hold (a million ringtones fit well within it).
    package static let largestManifest = 64_000_000

    /// Reads the manifest at `path` (its clip paths relative to its folder) on top of `base`
    /// settings (the command line's).
    /// - Throws: `BatchError.manifest` when it cannot be read or is not a manifest.
    package static func manifest(at path: String, base: RenderSettings) throws -> BatchManifest {
        // Read no more than a manifest can be: a pipe works, /dev/zero does not fill memory.
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw BatchError.manifest(path, FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file")
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: largestManifest + 1) ?? Data() } catch {
            throw BatchError.manifest(path, "cannot be read (\(SystemError(foundation: error, operation: "read", path: path).reason))")
        }
        guard data.count <= largestManifest else {
            throw BatchError.manifest(path, "larger than \(largestManifest / 1_000_000) MB; not a manifest")
        }
        let folder = (FileSystem.absolutePath(path) as NSString).deletingLastPathComponent
        do { return try BatchManifest(data: data, folder: folder, base: base) } catch let error as BatchManifestError {
            throw BatchError.manifest(path, error.reason)
        }
    }

    /// The manifest's items that `shard` builds: those whose `shardKey` hashes to it.
    package static func items(of manifest: BatchManifest, in shard: ShardSpec) -> [BatchManifest.Item] {
        guard shard.isSharded else { return manifest.items }
        return manifest.items.filter { shard.owns(digest: ContentHash.sha256($0.shardKey)) }
    }

    /// How often, at most, a run writes its index while it builds, so a shard killed mid-way
    /// keeps what it finished.
    static let checkpointInterval: TimeInterval = 1

    /// Builds what needs building of this shard's ringtones.
    /// - Throws: `BatchError` when the output folder cannot be made or written (nothing is built then).
    package func run() throws -> BatchReport {
        let start = Date()
        try makeOutputDirectory()
        let owned = Self.items(of: manifest, in: shard)
        sweep(owned)
        let records = BatchRecords(directory: output)
        let indexPath = BatchIndex.path(of: shard, in: output)
        var index = BatchIndex.load(indexPath)
        if !shard.isSharded, FileSystem.kind(of: indexPath) == .missing {
            index = BatchIndex.load("\(output)/\(BatchIndex.legacyFileName)")   // an earlier version's folder: its records carry over
        }
        // Ringtones of this manifest that are now another shard's: their records are that shard's to keep.
        let mine = Set(owned.map(\.id))
        for item in manifest.items where !mine.contains(item.id) { index.ringtones[item.id] = nil }
        index.inputs = [:]   // refilled with this run's inputs
        let cache = try BatchClipCache(in: output, sampleRate: RenderSettings.defaultSampleRate, tag: cacheTag)
        var cacheRemoved = false
        defer { if !cacheRemoved { cache.remove() } }

        var report = BatchReport(shard: shard)
        var skipped: Set<String> = []
        var work: [(key: String, items: [BatchManifest.Item], hashes: [String])] = []
        var keyed: [String: Int] = [:]
        var hashes: [String: String] = [:]   // path → sha256, this run
        for item in owned {
            if let problem = item.problem { report.failed.append(.init(id: item.id, error: problem)); continue }
            do {
                let inputHashes = try item.clips.map { try hash($0, records: records, index: &index, seen: &hashes) }
                let key = ContentHash.sha256(Self.identity(item.settings, inputHashes))
                let file = "\(item.id).\(item.settings.format.fileExtension)"
                if var previous = records.current(item.id, key: key, file: file) {
                    // Built by any shard before (or by an earlier version, which kept no stamp): this shard's now.
                    if previous.stamp == nil { previous.stamp = try? FileStamp(path: "\(output)/\(file)") }
                    index.ringtones[item.id] = previous
                    skipped.insert(item.id)
                    continue
                }
                if let existing = keyed[key] { work[existing].items.append(item) } else {
                    keyed[key] = work.count
                    work.append((key, [item], inputHashes))
                }
            } catch {
                report.failed.append(.init(id: item.id, error: SystemError.text(of: error)))
            }
        }
        for failure in report.failed { retire(failure.id, records: records, index: &index) }

        let total = owned.count
        let shared = BatchWork(done: skipped.count + report.failed.count, failed: report.failed.count)
        let ledger = Locked((index: index, saved: Date()))
        progress(Progress(done: shared.done, total: total, failed: shared.failed, elapsed: 0))
        let groups = work
        WorkerPool(workers: jobs).run(groups.count, open: { _ in () }, work: { _, position in
            let group = groups[position]
            let built = self.build(group.items, hashes: group.hashes, cache: cache)
            ledger.withLock { ledger in
                for (item, result) in built { self.record(item, key: group.key, result, records: records, index: &ledger.index) }
                if Date().timeIntervalSince(ledger.saved) >= Self.checkpointInterval {
                    try? ledger.index.save(to: indexPath)   // a checkpoint; the final save reports failures
                    ledger.saved = Date()
                }
            }
            let snapshot = shared.record(built.map { ($0.0, group.key, $0.1) })
            self.progress(Progress(done: snapshot.done, total: total, failed: snapshot.failed, elapsed: Date().timeIntervalSince(start)))
        })
        // The decoded samples are no longer needed: their room is the index's.
        cache.remove()
        cacheRemoved = true
        index = ledger.withLock { $0.index }
        var builtIDs: Set<String> = []
        for (item, _, result) in shared.results {
            switch result {
            case .success: builtIDs.insert(item.id)
            case .failure(let error): report.failed.append(.init(id: item.id, error: SystemError.text(of: error)))
            }
        }
        try index.save(to: indexPath)
        if !shard.isSharded { FileSystem.remove("\(output)/\(BatchIndex.legacyFileName)") }   // its records are all in ours now

        let failedIDs = Set(report.failed.map(\.id))
        let position = order
        report.failed.sort { (position[$0.id] ?? 0) < (position[$1.id] ?? 0) }
        for item in owned where !failedIDs.contains(item.id) {
            if builtIDs.contains(item.id) { report.built.append(item.id) } else if skipped.contains(item.id) { report.skipped.append(item.id) }
            guard let record = index.ringtones[item.id] else { continue }
            report.ringtones.append(.init(id: item.id, output: "\(output)/\(record.file)", duration: record.duration, clips: record.clips ?? [],
                                          shortfall: record.shortfall))
            if let warning = record.warning { report.warnings.append(.init(id: item.id, warning: warning)) }
        }
        report.seconds = (Date().timeIntervalSince(start) * 1000).rounded() / 1000
        return report
    }

    /// Each id's position in the manifest, for reports in its order.
    private var order: [String: Int] {
        Dictionary(manifest.items.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Records a built ringtone (and removes its files of another format), or retires a failed one.
    private func record(_ item: BatchManifest.Item, key: String, _ result: Result<RenderReport, Error>,
                        records: BatchRecords, index: inout BatchIndex) {
        guard case .success(let rendered) = result else {
            retire(item.id, records: records, index: &index)
            return
        }
        let file = "\(item.id).\(item.settings.format.fileExtension)"
        for previous in Set(records.ringtones(item.id).map(\.file) + [index.ringtones[item.id]?.file].compactMap { $0 }) where previous != file {
            FileSystem.remove("\(output)/\(previous)")
        }
        index.ringtones[item.id] = .init(
            key: key, file: file, bytes: rendered.bytes, stamp: try? FileStamp(path: "\(output)/\(file)"),
            duration: rendered.duration,
            clips: rendered.clips.map { .init(input: $0.input, used: $0.used, reason: $0.reason) },
            warning: RingtoneWarning.text(for: rendered, cap: item.settings.cap), shortfall: rendered.loudness.shortfall)
    }

    /// What a killed run of this writer left in the output folder. An unsharded batch removes
    /// the caches and temporaries of processes that no longer run; a shard, which may share the
    /// folder with shards on other machines (whose processes it cannot see), removes only what
    /// its own earlier runs left: its tagged caches, temporaries of its ringtones and of its index.
    private func sweep(_ owned: [BatchManifest.Item]) {
        let folder = "\(output)/\(BatchIndex.folderName)"
        guard shard.isSharded else {
            BatchClipCache.sweepAbandoned(in: output)
            FileSystem.removeAbandonedTemporaries(in: output)
            FileSystem.removeAbandonedTemporaries(in: folder)
            return
        }
        BatchClipCache.sweep(in: output, tag: cacheTag)
        let names = owned.flatMap { item in RingtoneFormat.allCases.map { "\(item.id).\($0.fileExtension)" } }
        FileSystem.removeTemporaries(in: output, of: Set(names))
        FileSystem.removeTemporaries(in: folder, of: [BatchIndex.fileName(of: shard)])
    }

    /// The cache tag of this shard (`s2of4_`), empty when unsharded.
    private var cacheTag: String { shard.isSharded ? "s\(shard.index)of\(shard.count)_" : "" }

    /// Builds one ringtone and copies it to every other id with the same identity.
    private func build(_ items: [BatchManifest.Item], hashes: [String], cache: BatchClipCache) -> [(BatchManifest.Item, Result<RenderReport, Error>)] {
        let first = items[0]
        let path = "\(output)/\(first.id).\(first.settings.format.fileExtension)"
        let built = Result<RenderReport, Error> {
            let sources = zip(first.clips, hashes).map { CachedClipSource(path: $0, contentHash: $1, cache: cache) }
            return try RingtoneRenderer().render(sources, settings: first.settings, to: path)
        }
        var results = [(first, built)]
        for other in items.dropFirst() {
            results.append((other, built.flatMap { rendered in
                Result {
                    let target = "\(output)/\(other.id).\(other.settings.format.fileExtension)"
                    do { try FileSystem.atomicCopy(path, to: target) } catch let error as SystemError {
                        throw BatchError.output(target, error.reason)
                    }
                    var copied = rendered
                    copied.output = target
                    return copied
                }
            }))
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

    /// A failed ringtone's old output is the wrong sound: it goes (whichever shard built it), with its record.
    private func retire(_ id: String, records: BatchRecords, index: inout BatchIndex) {
        guard !id.hasPrefix("#") else { return }
        let previous = index.ringtones.removeValue(forKey: id)
        for file in Set(records.ringtones(id).map(\.file) + [previous?.file].compactMap { $0 }) {
            FileSystem.remove("\(output)/\(file)")
        }
    }

    private func makeOutputDirectory() throws {
        if FileSystem.kind(of: output) != .missing, !FileSystem.isDirectory(output) {
            throw BatchError.output(output, "exists and is not a folder")
        }
        do { try FileSystem.makeDirectory(output, permissions: 0o755) } catch {
            throw BatchError.output(output, "cannot be created (\(error.reason))")
        }
        guard FileSystem.isWritableDirectory(output) else { throw BatchError.output(output, "is not writable") }
        let folder = "\(output)/\(BatchIndex.folderName)"
        do { try FileSystem.makeDirectory(folder, permissions: 0o755) } catch {
            throw BatchError.output(folder, "cannot be created (\(error.reason))")
        }
    }

    /// Everything a ringtone depends on, in a canonical text.
    static func identity(_ settings: RenderSettings, _ inputHashes: [String]) -> String {
        (["batch-v1", "p\(RenderSettings.processing)", settings.fingerprint] + inputHashes).joined(separator: "|")
    }
}
