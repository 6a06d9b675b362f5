import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// A clip read once for a whole batch: how long it is once trimmed (as far as any cap could
/// need), and its samples, kept in a file so memory does not grow with the batch.
public struct CachedClip: Sendable {
    /// The input's path, for reports and errors.
    public var input: String
    /// The trimmed length, exact, or known only to be longer than any cap.
    public var extent: ClipExtent
    /// Samples of silence trimmed off (for the report).
    public var silenceTrimmed: Int
    /// Raw native-endian 32-bit float samples of the trimmed clip, at least as many as any cap uses.
    public var samplesFile: String
}

/// Decodes each input of a batch at most once (per silence-trimming choice), however many
/// ringtones use it, and only when a ringtone reaches it: a clip after the first one left out
/// is never decoded. Safe to use from several threads; the files live in `directory` (inside
/// the batch's output folder) and go away with it.
public final class BatchClipCache: @unchecked Sendable {
    public let directory: String
    public let sampleRate: Int
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]

    /// The most any valid cap can take: just under 30 s.
    public var budget: Int { Int(RenderSettings.hardLimit * Double(sampleRate)) - 1 }

    private final class Entry: @unchecked Sendable {
        let ready = DispatchSemaphore(value: 0)
        var result: Result<CachedClip, Error>?
    }

    public init(directory: String, sampleRate: Int) throws {
        self.directory = directory
        self.sampleRate = sampleRate
        try AudioError.writing(directory) { try FileSystem.makeDirectory(directory, permissions: 0o700) }
    }

    /// The clip at `path`, whose bytes hash to `hash`, trimmed or not.
    /// - Throws: `AudioError` when it cannot be decoded (each waiting caller gets the same error).
    public func clip(_ path: String, hash: String, trimSilence: Bool) throws -> CachedClip {
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
            entry.ready.signal()   // let the next waiter through too
        }
        var clip = try entry.result!.get()
        clip.input = path
        return clip
    }

    private func read(_ path: String, key: String, trimSilence: Bool) throws -> CachedClip {
        let decoder = try AudioDecoder(path: path, sampleRate: sampleRate)
        let reading = try ClipReader.read(decoder, budget: budget, trimSilence: trimSilence)
        let file = "\(directory)/\(key).f32"
        try reading.samples.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: URL(fileURLWithPath: file))
        return CachedClip(input: path, extent: reading.extent,
                          silenceTrimmed: reading.leadingTrimmed + (reading.trailingTrimmed ?? 0), samplesFile: file)
    }

    /// Reads the first `count` samples of a cached clip.
    static func samples(of clip: CachedClip, count: Int) throws -> [Float] {
        guard let handle = FileHandle(forReadingAtPath: clip.samplesFile) else {
            throw AudioError.unreadable(path: clip.samplesFile, reason: "the batch cache lost it")
        }
        defer { try? handle.close() }
        let data = try handle.read(upToCount: count * MemoryLayout<Float>.size) ?? Data()
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}
