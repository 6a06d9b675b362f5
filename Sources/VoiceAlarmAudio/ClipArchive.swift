internal import CFFmpeg
import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// Keeps the library's recordings: a lossless copy of each (FLAC, 24-bit, mono, at the library's
/// rate), measured once so that no ringtone is ever planned by decoding.
package enum ClipArchive {
    /// The rate every stored clip, and every library ringtone, is at.
    package static let sampleRate = RenderSettings.defaultSampleRate

    /// What was stored and measured.
    package struct Archived: Sendable {
        /// The stored copy's path, under its final name.
        package var path: String
        package var frames: Int
        package var trimmedStart: Int
        package var trimmedLength: Int
        /// SHA-256 of the stored copy's bytes.
        package var contentHash: String
        /// Integrated loudness of the whole take.
        package var loudness: Loudness
        /// What was left out at the end (`damage: .keepWhatDecodes`): nil when the file was whole.
        package var cutOff: CutOff?
    }

    /// Decodes `source` whole and stores it as `directory/<name>.flac` through
    /// `FileSystem.atomicWrite`, so no half-written clip ever sits under a final name.
    ///
    /// A recording may last at most `longest` seconds (`InputLimits.longestRecording`): one
    /// whose header declares more is refused before decoding, and one without a declared
    /// length is refused as soon as decoding passes the limit, so no header can make an
    /// import run without bound. A file cut in the middle of a frame, or damaged, is refused
    /// (`damage: .refuse`), or kept up to its last whole frame (`.keepWhatDecodes`: a take, a
    /// salvage), what was cut in `cutOff`; what is kept is checked as any recording is.
    /// - Throws: `AudioError` for a file that is not audio, too long, holds no samples, is cut off
    ///   or damaged (unless kept), is silent (a muted microphone must not become a clip), or
    ///   inaudible (`Audibility`: an 18.5 kHz or a 25 Hz tone); nothing is left behind then.
    package static func store(
        _ source: String, into directory: String, name: String,
        longest: Double = InputLimits.longestRecording, damage: AudioDecoder.Damage = .refuse
    ) throws -> Archived {
        let decoder = try AudioDecoder(path: source, sampleRate: sampleRate, damage: damage)
        // Container estimates and codec priming differ by a few frames: both limits allow for them.
        let allowed = longest + AudioDecoder.truncationTolerance
        if let declared = decoder.declaredDuration, declared > allowed {
            throw AudioError.tooLong(path: source, limit: longest, declared: declared)
        }
        let mostSamples = Int(allowed * Double(sampleRate))
        let final = "\(directory)/\(name).flac"
        let (scan, loudness) = try AudioError.writing(final) {
            try FileSystem.atomicWrite(to: final, permissions: 0o600) { temporary in
                let writer = try AudioFileWriter(
                    .init(
                        muxer: "flac", encoder: "flac", sampleRate: sampleRate, bitRate: nil, bitsPerRawSample: 24,
                        preferredFormats: [AV_SAMPLE_FMT_S32]), path: temporary)
                let meter = try LoudnessMeter(sampleRate: sampleRate, path: source)
                let band = try SpeechBandMeter(sampleRate: sampleRate, path: source)
                var scan = SilenceScan(sampleRate: sampleRate)
                // The copy keeps the recording as it is; what is measured (the trim, the
                // loudness) is what a ringtone will play: the recording without its DC offset,
                // as `StoredClipSource` reads the copy.
                let dcBlocker = try DCBlocker(sampleRate: sampleRate, path: source)
                func measure(_ samples: [Float]) throws {
                    for sample in samples { scan.feed(sample) }
                    try meter.push(samples)
                    try band.push(samples)
                }
                var decoded = 0
                while let chunk = try decoder.read(upTo: 1 << 16) {
                    decoded += chunk.count
                    guard decoded <= mostSamples else {
                        throw AudioError.tooLong(path: source, limit: longest, declared: nil)
                    }
                    try measure(try dcBlocker.push(chunk[...]))
                    try writer.append(chunk)
                }
                try measure(try dcBlocker.finish())
                guard scan.total > 0 else { throw AudioError.noSamples(path: source) }
                let loudness = try meter.finish()
                if scan.isSilent || loudness.isSilent {
                    throw AudioError.silent(path: source, detail: String(format: "%.1f LUFS, peak %.1f dBFS", loudness.integrated, loudness.samplePeak))
                }
                if let problem = try band.finish().problem {
                    throw AudioError.inaudible(path: source, detail: problem)
                }
                try writer.finish()
                return (scan, loudness)
            }
        }
        let range = scan.trimmedRange
        return Archived(
            path: final, frames: scan.total, trimmedStart: range.start, trimmedLength: range.length,
            contentHash: try ContentHash.sha256(file: final), loudness: loudness, cutOff: decoder.cutOff)
    }
}
