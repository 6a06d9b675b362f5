import Foundation
import VoiceAlarmCore

/// Decodes a whole file to learn what an alarm system would find in it: container, codec,
/// decoded duration, peak, and (when asked) loudness.
package enum SoundInspector {
    /// What was found.
    package struct Inspection: Sendable {
        package var facts: SoundFacts
        /// The file's loudness, when measured.
        package var loudness: Loudness?
        /// Reasons the file is not a shippable alarm sound; empty when it is.
        package var problems: [String] { ShippableSound.problems(of: facts) }
    }

    /// Decodes `path` completely, at its own rate so no resampling blurs the count, and reports
    /// on it. Samples are streamed, loudness included (measured on a second thread): a two-hour
    /// file costs no memory.
    /// - Throws: `AudioError` when the file cannot be read or decoded.
    package static func inspect(_ path: String, measureLoudness: Bool = false) throws -> Inspection {
        let decoder = try AudioDecoder(path: path, sampleRate: nil)
        let meter = measureLoudness ? try LoudnessMeter(sampleRate: decoder.sourceSampleRate, path: path) : nil
        var count = 0
        var peak: Float = 0
        if let meter {
            // The meters take the samples on a second thread while this one decodes the next, in
            // the render's chunks: the pipe holds up to `ChunkPipe.capacity` of them, so chunks of
            // 65,536 samples made the check of a ringtone hold 2 MB more than its render.
            try ChunkPipe.run(
                produce: { send in
                    while let chunk = try decoder.read(upTo: MixStream.chunk) {
                        count += chunk.count
                        peak = max(peak, TruePeakMeter.peak(of: chunk[...]))
                        try send(chunk[...])
                    }
                }, consume: { try meter.push($0) })
        } else {
            while let chunk = try decoder.read(upTo: 1 << 16) {
                count += chunk.count
                peak = max(peak, TruePeakMeter.peak(of: chunk[...]))
            }
        }
        let facts = SoundFacts(
            fileExtension: URL(fileURLWithPath: path).pathExtension.lowercased(),
            container: decoder.container,
            codec: decoder.codec,
            sampleRate: decoder.sourceSampleRate,
            channels: decoder.sourceChannels,
            duration: Double(count) / Double(decoder.sourceSampleRate),
            peak: Double(peak))
        let loudness = count > 0 ? try meter?.finish() : nil
        return Inspection(facts: facts, loudness: loudness)
    }

    /// A 16-bit PCM file read back: what an alarm system would find in it, and its samples as a
    /// count and a digest (`PCMDigest`), to compare with what was written.
    struct ReadBack {
        var facts: SoundFacts
        var count: Int
        var digest: String
    }

    /// Decodes `path` completely at its own rate and digests its samples; nothing is measured.
    /// - Throws: `AudioError` when the file cannot be read or decoded.
    static func readBack(_ path: String) throws -> ReadBack {
        let decoder = try AudioDecoder(path: path, sampleRate: nil)
        let digest = try PCMDigest()
        var peak: Float = 0
        while let chunk = try decoder.read(upTo: 1 << 16) {
            peak = max(peak, TruePeakMeter.peak(of: chunk[...]))
            digest.add(decoded: chunk[...])
        }
        let facts = SoundFacts(
            fileExtension: URL(fileURLWithPath: path).pathExtension.lowercased(),
            container: decoder.container, codec: decoder.codec, sampleRate: decoder.sourceSampleRate,
            channels: decoder.sourceChannels, duration: Double(digest.count) / Double(decoder.sourceSampleRate), peak: Double(peak))
        return ReadBack(facts: facts, count: digest.count, digest: digest.finish())
    }
}
