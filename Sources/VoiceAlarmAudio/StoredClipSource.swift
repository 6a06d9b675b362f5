import VoiceAlarmCore

/// A library clip, planned from the lengths measured when it was imported (measuring does no
/// I/O) and read from its stored lossless copy over the planned range only.
package final class StoredClipSource: ClipSource {
    /// The clip, with its stored lengths.
    package let clip: LibraryClip
    /// Its stored copy.
    package let path: String
    private var measured: (range: (start: Int, length: Int), trimSilence: Bool, sampleRate: Int)?

    /// The library clip `clip`, whose stored copy lies in `clipsDirectory`; nothing is opened yet.
    package init(clip: LibraryClip, clipsDirectory: String) {
        self.clip = clip
        path = "\(clipsDirectory)/\(clip.fileName)"
    }

    /// The clip's title.
    package var name: String { clip.title }

    /// The stored trimmed (or whole) length, always exact, exactly as `LibraryPlan` plans it.
    package func measure(within budget: Int, trimSilence: Bool, sampleRate: Int) throws -> ClipExtent {
        precondition(sampleRate == clip.sampleRate, "clip \(clip.idString) stored at \(clip.sampleRate) Hz, rendered at \(sampleRate) Hz")
        let range = clip.range(trimSilence: trimSilence)
        measured = (range, trimSilence, sampleRate)
        return .exact(range.length)
    }

    /// Decodes the stored copy from the start of the planned range for `count` samples, a
    /// chunk at a time (each pass of a render decodes again: nothing is held between passes).
    /// - Throws: `AudioError` for a stored copy that is missing, damaged, or shorter than stored.
    package func read(_ count: Int, chunk: Int, into sink: (ArraySlice<Float>) throws -> Void) throws {
        guard let (range, _, sampleRate) = measured else { preconditionFailure("samples of clip \(clip.idString) asked before it was measured") }
        precondition(count <= range.length, "\(count) samples of clip \(clip.idString) asked, \(range.length) stored")
        let decoder = try AudioDecoder(path: path, sampleRate: sampleRate, removeDC: true)
        var skipped = 0
        while skipped < range.start, let chunk = try decoder.read(upTo: min(1 << 16, range.start - skipped)) { skipped += chunk.count }
        var done = 0
        while done < count, let samples = try decoder.read(upTo: min(chunk, count - done)) {
            try sink(samples[...])
            done += samples.count
        }
        guard done == count else {
            throw AudioError.truncated(
                path: path, decoded: Double(skipped + done) / Double(sampleRate),
                declared: Double(range.start + count) / Double(sampleRate))
        }
    }

    package var silenceTrimmed: Int {
        measured?.trimSilence == true ? clip.frames - clip.trimmedLength : 0
    }
}
