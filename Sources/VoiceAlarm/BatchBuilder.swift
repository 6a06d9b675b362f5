import Foundation
import Synchronization
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles

/// Builds the ringtones of a manifest into one folder, in parallel and incrementally.
///
/// Every core is kept busy (`jobs` workers); every input is decoded at most once
/// (`BatchClipCache`, spilled to a folder inside the output); identical ringtones are built
/// once and copied; a ringtone whose inputs' bytes and settings are unchanged since it was
/// built is skipped. A failing ringtone never stops the others.
///
/// ```swift
/// let outcome = try BatchBuilder(manifest: manifest, outputDirectory: "out", jobs: 2).run()
/// ```
public final class BatchBuilder: Sendable {
    /// What a run did: `{"built", "skipped", "failed": [{"id", "error"}], "seconds"}`.
    public struct Outcome: Encodable, Sendable {
        public struct Failure: Encodable, Sendable, Equatable {
            public var id: String
            public var error: String
            public init(id: String, error: String) {
                self.id = id
                self.error = error
            }
        }
        public var built = 0
        public var skipped = 0
        public var failed: [Failure] = []
        public var seconds = 0.0
        public init() {}
    }

    /// Progress after each ringtone: done, total, failures so far.
    public struct Progress: Sendable {
        public var done: Int
        public var total: Int
        public var failed: Int
        public var elapsed: TimeInterval
    }

    let manifest: BatchManifest
    let output: String
    let jobs: Int
    let progress: @Sendable (Progress) -> Void

    public init(manifest: BatchManifest, outputDirectory: String, jobs: Int,
                progress: @escaping @Sendable (Progress) -> Void = { _ in }) {
        precondition(jobs > 0, "at least one job")
        self.manifest = manifest
        output = outputDirectory
        self.jobs = jobs
        self.progress = progress
    }

    /// The most bytes a manifest may hold (a million ringtones fit well within it).
    public static let largestManifest = 64_000_000

    /// Reads the manifest at `path` (its clip paths relative to its folder) on top of `base`
    /// settings (the command line's).
    /// - Throws: `BatchError.manifest` when it cannot be read or is not a manifest.
    public static func manifest(at path: String, base: RenderSettings) throws -> BatchManifest {
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

    /// Builds what needs building.
    /// - Throws: `BatchError` when the output folder cannot be made or written (nothing is built then).
    public func run() throws -> Outcome {
        let start = Date()
        try makeOutputDirectory()
        var index = BatchIndex.load(from: output)
        // What a killed batch left here: its decode cache, and its half-written ringtones.
        BatchClipCache.sweepAbandoned(in: output)
        FileSystem.removeAbandonedTemporaries(in: output)
        let cache = try BatchClipCache(in: output, sampleRate: RenderSettings.defaultSampleRate)
        var cacheRemoved = false
        defer { if !cacheRemoved { cache.remove() } }

        var outcome = Outcome()
        var work: [(key: String, items: [BatchManifest.Item], hashes: [String])] = []
        var keyed: [String: Int] = [:]
        var hashes: [String: String] = [:]   // path → sha256, this run
        for item in manifest.items {
            if let problem = item.problem { outcome.failed.append(.init(id: item.id, error: problem)); continue }
            do {
                let inputHashes = try item.clips.map { try hash($0, index: &index, seen: &hashes) }
                let key = ContentHash.sha256(Self.identity(item.settings, inputHashes))
                let file = "\(item.id).\(item.settings.format.fileExtension)"
                if let previous = index.ringtones[item.id], previous.key == key, previous.file == file,
                   let size = (try? FileManager.default.attributesOfItem(atPath: "\(output)/\(file)"))?[.size] as? Int,
                   size == previous.bytes {
                    outcome.skipped += 1
                    continue
                }
                if let existing = keyed[key] { work[existing].items.append(item) } else {
                    keyed[key] = work.count
                    work.append((key, [item], inputHashes))
                }
            } catch {
                outcome.failed.append(.init(id: item.id, error: SystemError.text(of: error)))
            }
        }
        for failure in outcome.failed { retire(failure.id, index: &index) }

        let total = manifest.items.count
        let shared = BatchWork(done: outcome.skipped + outcome.failed.count, failed: outcome.failed.count)
        progress(Progress(done: shared.done, total: total, failed: shared.failed, elapsed: 0))
        let groups = work
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, groups.count))) { _ in
            while let position = shared.take(below: groups.count) {
                let group = groups[position]
                let built = build(group.items, hashes: group.hashes, cache: cache)
                let snapshot = shared.record(built.map { ($0.0, group.key, $0.1) })
                progress(Progress(done: snapshot.done, total: total, failed: snapshot.failed, elapsed: Date().timeIntervalSince(start)))
            }
        }
        // The decoded samples are no longer needed: their room is the index's.
        cache.remove()
        cacheRemoved = true
        let results = shared.results
        for (item, key, result) in results {
            switch result {
            case .success(let bytes):
                let file = "\(item.id).\(item.settings.format.fileExtension)"
                if let previous = index.ringtones[item.id], previous.file != file { FileSystem.remove("\(output)/\(previous.file)") }
                index.ringtones[item.id] = .init(key: key, file: file, bytes: bytes)
                outcome.built += 1
            case .failure(let error):
                outcome.failed.append(.init(id: item.id, error: SystemError.text(of: error)))
                retire(item.id, index: &index)
            }
        }
        try index.save(to: output)
        outcome.seconds = (Date().timeIntervalSince(start) * 1000).rounded() / 1000
        return outcome
    }

    /// Builds one ringtone and copies it to every other id with the same identity.
    private func build(_ items: [BatchManifest.Item], hashes: [String], cache: BatchClipCache) -> [(BatchManifest.Item, Result<Int, Error>)] {
        let first = items[0]
        let path = "\(output)/\(first.id).\(first.settings.format.fileExtension)"
        let built = Result<Int, Error> {
            let sources = zip(first.clips, hashes).map { CachedClipSource(path: $0, contentHash: $1, cache: cache) }
            return try RingtoneRenderer().render(sources, settings: first.settings, to: path).bytes
        }
        var results = [(first, built)]
        for other in items.dropFirst() {
            results.append((other, built.flatMap { bytes in
                Result {
                    let target = "\(output)/\(other.id).\(other.settings.format.fileExtension)"
                    do { try FileSystem.atomicCopy(path, to: target) } catch let error as SystemError {
                        throw BatchError.output(target, error.reason)
                    }
                    return bytes
                }
            }))
        }
        return results
    }

    /// The content hash of an input, reusing the recorded one only when size, modification
    /// time and inode all still match. The input is checked first (`stat` only): a FIFO or a
    /// device is refused before anything opens it.
    private func hash(_ path: String, index: inout BatchIndex, seen: inout [String: String]) throws -> String {
        if let known = seen[path] { return known }
        try AudioDecoder.checkReadableFile(path)
        guard let file = try? FileStamp(path: path) else { throw AudioError.fileNotFound(path: path) }
        let stamp = BatchIndex.Input(size: file.size, modified: file.modifiedSeconds, inode: file.inode, sha256: "")
        var hash: String
        if let recorded = index.inputs[path], recorded.size == stamp.size, recorded.modified == stamp.modified, recorded.inode == stamp.inode {
            hash = recorded.sha256
        } else {
            hash = try ContentHash.sha256(file: path)
            var updated = stamp
            updated.sha256 = hash
            index.inputs[path] = updated
        }
        seen[path] = hash
        return hash
    }

    /// A failed ringtone's old output is the wrong sound: it goes, with its record.
    private func retire(_ id: String, index: inout BatchIndex) {
        guard !id.hasPrefix("#"), let previous = index.ringtones.removeValue(forKey: id) else { return }
        FileSystem.remove("\(output)/\(previous.file)")
    }

    private func makeOutputDirectory() throws {
        if FileSystem.kind(of: output) != .missing, !FileSystem.isDirectory(output) {
            throw BatchError.output(output, "exists and is not a folder")
        }
        do { try FileSystem.makeDirectory(output, permissions: 0o755) } catch {
            throw BatchError.output(output, "cannot be created (\(error.reason))")
        }
        guard FileSystem.isWritableDirectory(output) else { throw BatchError.output(output, "is not writable") }
    }

    /// Everything a ringtone depends on, in a canonical text.
    static func identity(_ settings: RenderSettings, _ inputHashes: [String]) -> String {
        (["batch-v1", settings.fingerprint] + inputHashes).joined(separator: "|")
    }
}
