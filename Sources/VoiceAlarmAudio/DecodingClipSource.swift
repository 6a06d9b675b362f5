import VoiceAlarmCore

/// A clip in an audio file of any format, decoded on demand: the file is opened when the clip
/// is measured, not before, and read only as far as the budget needs (`ClipReader`); the
/// samples measuring kept are the ones the ringtone uses. What `voicealarm render` reads.
package final class DecodingClipSource: ClipSource {
    /// The file the clip is read from.
    package let path: String
    private var reading: ClipReading?

    /// A clip to be read from `path` when it is measured; nothing is opened yet.
    package init(path: String) {
        self.path = path
    }

    /// Sources for `paths`, in order, each file checked to be there and readable now — even one
    /// the cap will leave out, so a mistyped name is reported, not skipped.
    /// - Throws: `AudioError` naming the first file that is missing, a folder, empty or unreadable.
    package static func files(_ paths: [String]) throws -> [any ClipSource] {
        for path in paths { try AudioDecoder.checkReadableFile(path) }
        return paths.map(DecodingClipSource.init(path:))
    }

    package var name: String { path }

    package func measure(within budget: Int, trimSilence: Bool, sampleRate: Int) throws -> ClipExtent {
        let decoder = try AudioDecoder(path: path, sampleRate: sampleRate, removeDC: true)
        let reading = try ClipReader.read(decoder, budget: budget, trimSilence: trimSilence)
        self.reading = reading
        return reading.extent
    }

    /// Slices of the samples measuring kept.
    package func read(_ count: Int, chunk: Int, into sink: (ArraySlice<Float>) throws -> Void) throws {
        guard let reading else { preconditionFailure("samples of \(path) asked before it was measured") }
        precondition(count <= reading.samples.count, "\(count) samples of \(path) asked, \(reading.samples.count) read")
        for start in stride(from: 0, to: count, by: chunk) { try sink(reading.samples[start..<min(count, start + chunk)]) }
    }

    package var silenceTrimmed: Int {
        reading.map { $0.leadingTrimmed + ($0.trailingTrimmed ?? 0) } ?? 0
    }
}
