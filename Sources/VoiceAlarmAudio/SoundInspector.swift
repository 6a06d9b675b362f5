import Foundation
import VoiceAlarmCore

/// Decodes a whole file to learn what an alarm system would find in it: container, codec,
/// decoded duration, peak, and (when asked) loudness.
public enum SoundInspector {
    /// What was found.
    public struct Inspection: Sendable {
        public var facts: SoundFacts
        /// The file's loudness, when measured.
        public var loudness: Loudness?
        /// Reasons the file is not a shippable alarm sound; empty when it is.
        public var problems: [String] { ShippableSound.problems(of: facts) }
    }

    /// Decodes `path` completely (at its own rate, so no resampling blurs the count) and reports on it.
    /// - Throws: `AudioError` when the file cannot be read or decoded at all.
    public static func inspect(_ path: String, measureLoudness: Bool = false) throws -> Inspection {
        let decoder = try AudioDecoder(path: path, sampleRate: nil)
        let samples = try decoder.readAll()
        let peak = samples.reduce(Float(0)) { max($0, abs($1)) }
        let facts = SoundFacts(
            fileExtension: URL(fileURLWithPath: path).pathExtension.lowercased(),
            container: decoder.container,
            codec: decoder.codec,
            sampleRate: decoder.sourceSampleRate,
            channels: decoder.sourceChannels,
            duration: Double(samples.count) / Double(decoder.sourceSampleRate),
            peak: Double(peak))
        let loudness = measureLoudness && !samples.isEmpty
            ? try LoudnessMeter.measure(samples, sampleRate: decoder.sourceSampleRate, path: path) : nil
        return Inspection(facts: facts, loudness: loudness)
    }
}
