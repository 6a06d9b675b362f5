/// A container a ringtone can be shipped in.
///
/// m4a (AAC) is the default, as the reference app ships it; caf, wav and aiff carry the
/// codecs Apple documents for alert sounds (linear PCM, IMA4); mp3 was reported to work.
package enum RingtoneFormat: String, CaseIterable, Sendable, Codable {
    case m4a, caf, wav, aiff, mp3

    /// The file extension written for this format.
    package var fileExtension: String { rawValue }

    /// The format a file name's extension asks for (`aif` counts as aiff), or nil.
    package init?(fileExtension ext: String) {
        switch ext.lowercased() {
        case "m4a": self = .m4a
        case "caf": self = .caf
        case "wav": self = .wav
        case "aiff", "aif": self = .aiff
        case "mp3": self = .mp3
        default: return nil
        }
    }

    /// The codec used when none is asked for.
    package var defaultCodec: RingtoneCodec {
        switch self {
        case .m4a: .aac
        case .caf, .wav, .aiff: .pcm16
        case .mp3: .mp3
        }
    }

    /// The codecs this format may carry.
    package var allowedCodecs: [RingtoneCodec] {
        switch self {
        case .m4a: [.aac]
        case .caf, .aiff: [.pcm16, .ima4]
        case .wav: [.pcm16]
        case .mp3: [.mp3]
        }
    }

    /// FFmpeg's muxer name for this format.
    package var muxerName: String {
        switch self {
        case .m4a: "ipod"
        case .caf: "caf"
        case .wav: "wav"
        case .aiff: "aiff"
        case .mp3: "mp3"
        }
    }

    /// FFmpeg's codec name for `codec` in this container (endianness follows the container).
    package func ffmpegCodecName(_ codec: RingtoneCodec) -> String {
        switch codec {
        case .aac: "aac"
        case .mp3: "mp3"
        case .ima4: "adpcm_ima_qt"
        case .pcm16: self == .aiff ? "pcm_s16be" : "pcm_s16le"
        }
    }
}

/// The audio coding inside a ringtone file, named as a user types it.
package enum RingtoneCodec: String, CaseIterable, Sendable, Codable {
    /// AAC-LC, the m4a codec.
    case aac
    /// 16-bit linear PCM.
    case pcm16 = "pcm"
    /// IMA4 ADPCM (QuickTime's `ima4`), 4:1 smaller than 16-bit PCM.
    case ima4
    /// MPEG-1 Layer III.
    case mp3

    /// Samples per coded frame when a decoder may play the last frame whole, padding included.
    ///
    /// FFmpeg 5.1 ignores the end of an m4a edit list, so an AAC ringtone decodes to whole
    /// 1024-sample frames; IMA4 packs 64 samples a packet with no remainder field. A ringtone in
    /// these codecs is therefore made a whole number of frames long, so every player hears the
    /// same length. mp3 carries its padding in the LAME header, PCM has no frames: nil.
    package var paddedFrameLength: Int? {
        switch self {
        case .aac: 1024
        case .ima4: 64
        case .pcm16, .mp3: nil
        }
    }
}
