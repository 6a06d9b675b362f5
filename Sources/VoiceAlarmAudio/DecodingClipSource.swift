import VoiceAlarmCore

/// A clip in an audio file of any format, decoded on demand: the file is opened when the clip
/// is measured, not before, and read only as far as the budget needs (`ClipReader`); the
/// samples measuring kept are the ones the ringtone uses. What `voicealarm render` reads.
public final class DecodingClipSource: ClipSource {
    /// The file the clip is read from.
    public let path: String
    private var reading: ClipReading?

    /// A clip to be read from `path` when it is measured; nothing is opened yet.
    public init(path: String) {
        self.path = path
    }

    public var name: String { path }

    public func measure(within budget: Int, trimSilence: Bool, sampleRate: Int) throws -> ClipExtent {
        let decoder = try AudioDecoder(path: path, sampleRate: sampleRate)
        let reading = try ClipReader.read(decoder, budget: budget, trimSilence: trimSilence)
        self.reading = reading
        return reading.extent
    }

    public func samples(_ count: Int) throws -> [Float] {
        guard let reading else { preconditionFailure("samples of \(path) asked before it was measured") }
        precondition(count <= reading.samples.count, "\(count) samples of \(path) asked, \(reading.samples.count) read")
        return Array(reading.samples.prefix(count))
    }

    public var silenceTrimmed: Int {
        reading.map { $0.leadingTrimmed + ($0.trailingTrimmed ?? 0) } ?? 0
    }
}
