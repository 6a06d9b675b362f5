import Foundation
import VoiceAlarmCore

/// Writes mono float samples to a ringtone file in one of the five formats.
///
/// m4a is AAC-LC through the `ipod` muxer with `+faststart` (the `moov` box first). mp3 is LAME
/// with its gapless header and no ID3 tag. PCM endianness follows the container.
package struct RingtoneEncoder: Sendable {
    package let settings: RenderSettings

    package init(settings: RenderSettings) { self.settings = settings }

    /// Bit rate for the lossy codecs: plenty for a single voice.
    static let bitRate: Int64 = 96_000

    private var spec: AudioFileWriter.Spec {
        let format = settings.format
        var spec = AudioFileWriter.Spec(
            muxer: format.muxerName,
            encoder: settings.codec == .mp3 ? "libmp3lame" : format.ffmpegCodecName(settings.codec),
            sampleRate: settings.sampleRate,
            bitRate: [.aac, .mp3].contains(settings.codec) ? Self.bitRate : nil)
        if format == .m4a { spec.muxerOptions["movflags"] = "+faststart" }
        if format == .mp3 { spec.muxerOptions["id3v2_version"] = "0" }
        return spec
    }

    /// Encodes `samples` into a new file at `path` (overwriting it).
    /// - Throws: `AudioError` naming the failing FFmpeg call.
    package func write(_ samples: [Float], to path: String) throws {
        let writer = try open(path)
        try writer.append(samples)
        try writer.finish()
    }

    /// A new file at `path` (overwriting it) to stream samples into: `append`, then `finish`.
    /// - Throws: `AudioError` naming the failing FFmpeg call.
    func open(_ path: String) throws -> AudioFileWriter {
        let writer = try AudioFileWriter(spec, path: path)
        if let expected = settings.codec.paddedFrameLength {
            precondition(writer.encoderFrameSize == expected, "\(spec.encoder) frames are \(writer.encoderFrameSize) samples, planned as \(expected)")
        }
        return writer
    }
}
