/// What a render produced and why: the composition, printed (the `--json` of `voicealarm render`).
package struct RenderReport: Equatable, Sendable, Encodable {
    /// One input clip's fate.
    package struct ClipReport: Equatable, Sendable, Encodable {
        package var input: String
        package var used: Bool
        /// Offset in the ringtone in seconds; nil when unused.
        package var start: Double?
        /// Seconds of the clip that play.
        package var duration: Double
        /// True when any of the clip was left out (silence or the cap).
        package var trimmed: Bool
        /// Why part or all of the clip was left out; nil when it plays whole.
        package var reason: String?

        package init(input: String, used: Bool, start: Double?, duration: Double, trimmed: Bool, reason: String?) {
            self.input = input
            self.used = used
            self.start = start
            self.duration = duration
            self.trimmed = trimmed
            self.reason = reason
        }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(input, forKey: .input)
            try c.encode(used, forKey: .used)
            try c.encode(start, forKey: .start)  // null when unused, as documented
            try c.encode(duration, forKey: .duration)
            try c.encode(trimmed, forKey: .trimmed)
            try c.encode(reason, forKey: .reason)
        }
        private enum CodingKeys: String, CodingKey { case input, used, start, duration, trimmed, reason }
    }

    /// Loudness of the file as written, measured by decoding it.
    package struct LoudnessReport: Equatable, Sendable, Encodable {
        package var integrated: Double
        package var truePeak: Double
        /// Set when the ringtone is more than `LoudnessShortfall.band` under its target.
        package var shortfall: LoudnessShortfall?
        /// A file measured at `integrated` LUFS and `truePeak` dBTP, under its target by `shortfall`.
        package init(integrated: Double, truePeak: Double, shortfall: LoudnessShortfall? = nil) {
            self.integrated = integrated
            self.truePeak = truePeak
            self.shortfall = shortfall
        }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(integrated, forKey: .integrated)
            try c.encode(truePeak, forKey: .truePeak)
            try c.encode(shortfall, forKey: .shortfall)  // null when on target, as documented
        }
        private enum CodingKeys: String, CodingKey { case integrated, truePeak, shortfall }
    }

    /// The passes made over the ringtone's audio: `measure` (the loudness and level profile,
    /// once when normalising) and `encode` (1, or more after a miss).
    package struct Passes: Equatable, Sendable, Encodable {
        /// Passes that measured the audio before encoding it.
        package var measure: Int
        /// Encodings, the first included.
        package var encode: Int
        /// The passes made: `measure` and `encode` of them.
        package init(measure: Int, encode: Int) {
            self.measure = measure
            self.encode = encode
        }
    }

    package var output: String
    package var format: String
    /// FFmpeg's codec name: `aac`, `pcm_s16le`, `pcm_s16be`, `adpcm_ima_qt`, `mp3`.
    package var codec: String
    package var sampleRate: Int
    package var channels: Int
    /// Decoded duration of the written file, in seconds.
    package var duration: Double
    package var bytes: Int
    package var loudness: LoudnessReport
    package var clips: [ClipReport]
    package var passes: Passes

    package init(
        output: String, format: String, codec: String, sampleRate: Int, channels: Int, duration: Double,
        bytes: Int, loudness: LoudnessReport, clips: [ClipReport], passes: Passes
    ) {
        self.output = output
        self.format = format
        self.codec = codec
        self.sampleRate = sampleRate
        self.channels = channels
        self.duration = duration
        self.bytes = bytes
        self.loudness = loudness
        self.clips = clips
        self.passes = passes
    }
}
