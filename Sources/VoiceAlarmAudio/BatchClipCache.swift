import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// A clip read once for a whole batch: how long it is once trimmed (as far as any cap could
/// need), and its samples, kept in a file so memory does not grow with the batch.
package struct CachedClip: Sendable {
    /// The input's path, for reports and errors.
    package var input: String
    /// The trimmed length, exact, or known only to be longer than any cap.
    package var extent: ClipExtent
    /// Samples of silence trimmed off (for the report).
    package var silenceTrimmed: Int
    /// Raw native-endian 32-bit float samples of the trimmed clip, at least as many as any cap uses.
    package var samplesFile: String
}

/// Decodes each input of a batch at most once (per silence-trimming choice), however many
/// ringtones use it, and only when a ringtone reaches it: a clip after the first one left out
/// is never decoded. Safe to use from several threads; the files live in `directory` (inside
/// the batch's output folder) and go away with it.
///
/// The folder is `.voicealarm-cache-<pid>-<start time>-<token>`, named after the process that
/// owns it (`ProcessIdentity`) and registered with `TemporaryFiles`, so Ctrl-C and SIGTERM
/// remove it; one left by a killed batch is removed by the next batch into the same folder
/// (`sweepAbandoned(in:)`), never one whose batch still runs.
///
/// ```swift
/// BatchClipCache.sweepAbandoned(in: "out")
/// let cache = try BatchClipCache(in: "out", sampleRate: 44_100)
/// defer { cache.remove() }
/// ```
package final class BatchClipCache: @unchecked Sendable {
    package let directory: String
    package let sampleRate: Int
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]

    /// The most any valid cap can take: just under 30 s.
    package var budget: Int { Int(RenderSettings.hardLimit * Double(sampleRate)) - 1 }

    private final class Entry: @unchecked Sendable {
        let ready = DispatchSemaphore(value: 0)
        var result: Result<CachedClip, Error>?
    }

    /// The prefix of every cache folder's name.
    package static let folderPrefix = ".voicealarm-cache-"

    /// Makes a cache folder of this process inside `outputDirectory`; `tag` (letters, digits and
    /// `_`, no `-`) names the writer's part of a shared folder, for `sweep(in:tag:)`.
    /// - Throws: `AudioError.cannotWrite` when it cannot be made.
    package convenience init(in outputDirectory: String, sampleRate: Int, tag: String = "") throws {
        precondition(!tag.contains("-") && !tag.contains("/"), "a cache tag holds no '-' or '/'")
        let token = UUID().uuidString.prefix(8).lowercased()
        try self.init(directory: "\(outputDirectory)/\(Self.folderPrefix)\(ProcessIdentity.current.text)-\(tag)\(token)", sampleRate: sampleRate)
    }

    /// Makes the cache folder `directory` (mode 0700), removed on Ctrl-C or SIGTERM.
    /// - Throws: `AudioError.cannotWrite` when it cannot be made.
    package init(directory: String, sampleRate: Int) throws {
        self.directory = directory
        self.sampleRate = sampleRate
        TemporaryFiles.registerFolder(directory)
        do {
            try AudioError.writing(directory) { try FileSystem.makeDirectory(directory, permissions: 0o700) }
        } catch {
            TemporaryFiles.unregisterFolder(directory)
            throw error
        }
    }

    /// Removes the folder and everything cached in it; call once the batch is done.
    package func remove() {
        FileSystem.removeTree(directory)
        TemporaryFiles.unregisterFolder(directory)
    }

    /// Removes the cache folders in `outputDirectory` whose batch is gone (killed before it
    /// could clean up); a folder whose owning process still runs is left alone, as two batches
    /// may share an output folder. A folder from a version that did not name its owner is
    /// removed once nothing has touched it for `legacyAge` seconds.
    /// - Returns: the names of the folders removed.
    @discardableResult
    package static func sweepAbandoned(in outputDirectory: String, legacyAge: TimeInterval = 3600, now: Date = Date()) -> [String] {
        var removed: [String] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: outputDirectory)) ?? [] where name.hasPrefix(folderPrefix) {
            let path = "\(outputDirectory)/\(name)"
            guard FileSystem.kind(of: path) == .directory else { continue }
            let owner = name.dropFirst(folderPrefix.count).split(separator: "-")
            if owner.count == 3 {
                guard let identity = ProcessIdentity(text: "\(owner[0])-\(owner[1])"), !identity.isRunning else { continue }
            } else {
                let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
                guard let modified, now.timeIntervalSince(modified) > legacyAge else { continue }
            }
            FileSystem.removeTree(path)
            removed.append(name)
        }
        return removed
    }

    /// Removes the cache folders in `outputDirectory` made with `tag` (non-empty), whichever
    /// process made them: for a writer that alone uses its tag (one shard of a batch, whose
    /// earlier run may have been killed on another machine, where no pid can be asked).
    /// - Returns: the names of the folders removed.
    @discardableResult
    package static func sweep(in outputDirectory: String, tag: String) -> [String] {
        precondition(!tag.isEmpty, "a tag names the writer")
        var removed: [String] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: outputDirectory)) ?? [] where name.hasPrefix(folderPrefix) {
            let owner = name.dropFirst(folderPrefix.count).split(separator: "-")
            let path = "\(outputDirectory)/\(name)"
            guard owner.count == 3, owner[2].hasPrefix(tag), FileSystem.kind(of: path) == .directory else { continue }
            FileSystem.removeTree(path)
            removed.append(name)
        }
        return removed
    }

    /// The clip at `path`, whose bytes hash to `hash`, trimmed or not.
    /// - Throws: `AudioError` when it cannot be decoded (each waiting caller gets the same error).
    package func clip(_ path: String, hash: String, trimSilence: Bool) throws -> CachedClip {
        let key = "\(hash)-\(sampleRate)-\(trimSilence ? "trim" : "whole")"
        let (entry, owner): (Entry, Bool) = lock.withLock {
            if let existing = entries[key] { return (existing, false) }
            let created = Entry()
            entries[key] = created
            return (created, true)
        }
        if owner {
            entry.result = Result { try read(path, key: key, trimSilence: trimSilence) }
            entry.ready.signal()
        } else {
            entry.ready.wait()
            entry.ready.signal()  // let the next waiter through too
        }
        var clip = try entry.result!.get()
        clip.input = path
        return clip
    }

    private func read(_ path: String, key: String, trimSilence: Bool) throws -> CachedClip {
        let decoder = try AudioDecoder(path: path, sampleRate: sampleRate, removeDC: true)
        let reading = try ClipReader.read(decoder, budget: budget, trimSilence: trimSilence)
        let file = "\(directory)/\(key).f32"
        do {
            // Written from the samples where they lie: a copy as `Data` doubled the clip's memory.
            try reading.samples.withUnsafeBytes { bytes in
                let data = bytes.baseAddress.map { Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: $0), count: bytes.count, deallocator: .none) }
                try (data ?? Data()).write(to: URL(fileURLWithPath: file))
            }
        } catch {
            FileSystem.remove(file)  // what part of it was written only takes room the batch's other files need
            throw AudioError.cannotWrite(path: file, reason: SystemError(foundation: error, operation: "write", path: file).reason)
        }
        return CachedClip(
            input: path, extent: reading.extent,
            silenceTrimmed: reading.leadingTrimmed + (reading.trailingTrimmed ?? 0), samplesFile: file)
    }

    /// Reads the first `count` samples of a cached clip.
    static func read(_ clip: CachedClip, count: Int, chunk: Int, into sink: (ArraySlice<Float>) throws -> Void) throws {
        guard let handle = FileHandle(forReadingAtPath: clip.samplesFile) else {
            throw AudioError.unreadable(path: clip.samplesFile, reason: "the batch cache lost it")
        }
        defer { try? handle.close() }
        var done = 0
        while done < count {
            let want = min(chunk, count - done)
            let data: Data
            do { data = try handle.read(upToCount: want * MemoryLayout<Float>.size) ?? Data() } catch {
                throw AudioError.unreadable(path: clip.samplesFile, reason: SystemError(foundation: error, operation: "read", path: clip.samplesFile).reason)
            }
            guard data.count == want * MemoryLayout<Float>.size else {
                throw AudioError.unreadable(path: clip.samplesFile, reason: "the batch cache lost part of it")
            }
            try sink(data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }[...])
            done += want
        }
    }
}
