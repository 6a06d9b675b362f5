/// Follows a stream of samples to find where its sound starts and ends, and whether it has any.
///
/// One place for the thresholds of `AudioLevels`: the renderer's clip reader and the library's
/// import both use it, so a clip is trimmed the same way wherever it is measured.
package struct SilenceScan: Sendable {
    private let threshold: Float
    private let silentPeak: Float
    /// Samples kept on each side of the sound, so soft consonants survive.
    package let padding: Int
    /// Samples seen so far.
    package private(set) var total = 0
    /// Index of the first sample above the trim threshold.
    package private(set) var firstLoud: Int?
    /// Index of the last sample above the trim threshold.
    package private(set) var lastLoud: Int?
    /// Largest absolute sample seen.
    package private(set) var peak: Float = 0

    package init(sampleRate: Int) {
        threshold = Float(AudioLevels.amplitude(dB: AudioLevels.trimThresholdDBFS))
        silentPeak = Float(AudioLevels.amplitude(dB: AudioLevels.silentPeakDBFS))
        padding = Int(AudioLevels.trimPadding * Double(sampleRate))
    }

    /// Takes the next sample; returns whether it is above the trim threshold.
    @discardableResult
    package mutating func feed(_ sample: Float) -> Bool {
        let level = abs(sample)
        if level > peak { peak = level }
        defer { total += 1 }
        guard level > threshold else { return false }
        if firstLoud == nil { firstLoud = total }
        lastLoud = total
        return true
    }

    /// Nothing above the silence threshold (−60 dBFS).
    package var isSilent: Bool { peak <= silentPeak }

    /// The part to keep once the whole stream has been seen: from `padding` before the first loud
    /// sample to `padding` after the last; everything when nothing is above the trim threshold
    /// (a quiet clip is kept whole, not emptied).
    package var trimmedRange: (start: Int, length: Int) {
        guard let firstLoud, let lastLoud else { return (0, total) }
        let start = max(0, firstLoud - padding)
        let end = min(total, lastLoud + 1 + padding)
        return (start, end - start)
    }
}
