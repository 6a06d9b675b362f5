/// Everything that decides how clips become a ringtone, apart from the clips themselves.
///
/// Two renders with equal settings and equal input audio produce the same ringtone, so
/// settings take part in a ringtone's identity.
package struct RenderSettings: Equatable, Hashable, Sendable, Codable {
    /// The longest a ringtone may be, in seconds. Must be > 0 and < 30.
    package var cap: Double
    /// Silence between clips, in seconds (0...1), counted against the cap.
    package var gap: Double
    /// Whether leading and trailing silence is cut from each clip before planning.
    package var trimSilence: Bool
    /// Whether the whole ringtone is brought to `targetLUFS`.
    package var normalize: Bool
    /// Integrated loudness to normalise to, in LUFS (−40...−6).
    package var targetLUFS: Double
    /// The container to write.
    package var format: RingtoneFormat
    /// The codec inside it; must be one of `format.allowedCodecs`.
    package var codec: RingtoneCodec
    /// Output sample rate in Hz; every length in a plan is counted at this rate.
    package var sampleRate: Int

    package static let defaultCap = 29.0
    package static let defaultGap = 0.3
    package static let defaultTargetLUFS = -16.0
    package static let defaultSampleRate = 44_100
    /// Ringtones must be shorter than this for the alarm system to play them.
    package static let hardLimit = 30.0
    package static let gapRange = 0.0...1.0
    package static let targetLUFSRange = -40.0...(-6.0)

    package init(
        cap: Double = RenderSettings.defaultCap,
        gap: Double = RenderSettings.defaultGap,
        trimSilence: Bool = true,
        normalize: Bool = true,
        targetLUFS: Double = RenderSettings.defaultTargetLUFS,
        format: RingtoneFormat = .m4a,
        codec: RingtoneCodec? = nil,
        sampleRate: Int = RenderSettings.defaultSampleRate
    ) {
        self.cap = cap
        self.gap = gap
        self.trimSilence = trimSilence
        self.normalize = normalize
        self.targetLUFS = targetLUFS
        self.format = format
        self.codec = codec ?? format.defaultCodec
        self.sampleRate = sampleRate
    }

    /// Why these settings cannot be used, or nil when they can.
    package var problem: String? {
        if !(cap > 0 && cap < Self.hardLimit) { return "cap must be more than 0 and less than 30 seconds (got \(cap))" }
        if !Self.gapRange.contains(gap) { return "gap must be between 0 and 1 second (got \(gap))" }
        if !Self.targetLUFSRange.contains(targetLUFS) { return "target loudness must be between -40 and -6 LUFS (got \(targetLUFS))" }
        if !format.allowedCodecs.contains(codec) {
            let allowed = format.allowedCodecs.map(\.rawValue).joined(separator: ", ")
            return "\(format.rawValue) cannot carry \(codec.rawValue) (use \(allowed))"
        }
        if !(8_000...96_000).contains(sampleRate) { return "sample rate must be 8000...96000 Hz (got \(sampleRate))" }
        let frame = codec.paddedFrameLength ?? 1
        if capSamples < frame {
            let shortest = (Double(frame) / Double(sampleRate) * 1000).rounded(.up) / 1000
            return String(format: "cap must hold at least one %@ frame: %.3f s or more (got \(cap))", codec.rawValue, shortest)
        }
        return nil
    }

    /// Sets one setting: the one validator every front end goes through. A new format brings its
    /// own default codec (a codec given after it may then replace that).
    /// - Throws: `RenderSettingError` naming the key when the value is out of range or the
    ///   settings no longer fit together (a format that cannot carry the codec).
    package mutating func set(_ key: RenderSettingKey, _ value: RenderSettingKey.Value) throws(RenderSettingError) {
        var changed = self
        switch (key, value) {
        case (.format, .format(let format)):
            if format != changed.format { changed.codec = format.defaultCodec }
            changed.format = format
        case (.codec, .codec(let codec)): changed.codec = codec
        case (.cap, .number(let seconds)): changed.cap = seconds
        case (.gap, .number(let seconds)): changed.gap = seconds
        case (.targetLUFS, .number(let lufs)): changed.targetLUFS = lufs
        case (.trimSilence, .flag(let on)): changed.trimSilence = on
        case (.normalize, .flag(let on)): changed.normalize = on
        default: preconditionFailure("\(key) cannot take \(value): the front end parsed it wrongly")
        }
        if let problem = changed.problem { throw RenderSettingError(key: key, reason: problem) }
        self = changed
    }

    /// The version of the processing every ringtone goes through, part of every ringtone identity
    /// (the library's and a batch's) beside the settings, so a ringtone made by an older
    /// processing is known as such and made again by the next `build --all`, change to its alarm
    /// or batch run — never taken for current. (Nothing rebuilds it unasked: it keeps ringing as
    /// it is.) 3: one measuring pass (no passes that only confirm the gain), the gain fitted by a
    /// bracketed search that ends on the best file, an encoded true peak over the ceiling met by
    /// lowering the limiter (the gain predicted again) before any trim. 2: DC offset removed
    /// before anything is measured, clip edges faded, the gain predicted from the level profile.
    /// 1: none of these (identities without a processing part).
    package static let processing = 3

    /// Everything in the settings a ringtone's audio depends on, in a canonical text: part of
    /// every ringtone identity (the library's and a batch's), so equal settings mean equal audio.
    package var fingerprint: String {
        [
            format.rawValue, codec.rawValue, "\(sampleRate)", "cap=\(capSamples)", "gap=\(gapSamples)",
            "trim=\(trimSilence)", "norm=\(normalize)", "lufs=\(targetLUFS)",
        ].joined(separator: "|")
    }

    /// The cap in samples at the output rate (rounded down, so the cap is never exceeded).
    package var capSamples: Int { Int((cap * Double(sampleRate)).rounded(.down)) }
    /// The gap in samples at the output rate.
    package var gapSamples: Int { Int((gap * Double(sampleRate)).rounded()) }
}
