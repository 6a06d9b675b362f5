import VoiceAlarmCore

/// The libavfilter chains a ringtone goes through, as `RingtoneRenderer` builds them for every
/// pass: the ringtone's own fades, then the gain and the limiter, then any trim.
enum RingtoneFilters {
    /// The level a normalised ringtone is encoded at: a gain, the limiter's ceiling after it, and
    /// any trim after the limiter (dB; the true-peak ceiling's last resort).
    struct Level: Equatable {
        var gain: Double
        var ceiling: Double
        var trim = 0.0
    }

    /// Every filter the ringtone goes through: `fades`, then (when normalising) `level`'s gain and
    /// the limiter at its ceiling, then any trim after the limiter — all libavfilter's.
    static func chain(_ fades: String, _ level: Level?) -> String {
        guard let level else { return fades }
        var chain = fades
        chain += String(
            format: ",volume=%.3fdB:precision=float,alimiter=limit=%.5f:level=false:latency=true:attack=%.0f:release=%.0f",
            level.gain, max(0.0625, AudioLevels.amplitude(dB: level.ceiling)),
            LevelProfile.attackSeconds * 1000, LevelProfile.releaseSeconds * 1000)
        if level.trim != 0 { chain += String(format: ",volume=%.3fdB:precision=float", level.trim) }
        return chain
    }

    /// The ringtone's own fades (libavfilter's `afade`, raised cosine): in at the start, out at
    /// the end — longer when the ringtone ends on a cut at the cap — so the loop seam is smooth.
    static func fades(_ composition: Composition, settings: RenderSettings) -> String {
        let rate = settings.sampleRate
        let total = composition.totalSamples
        let fadeIn = min(Int(AudioLevels.fadeIn * Double(rate)), total / 2)
        let fadeOut = min(Int((composition.endsOnCut ? AudioLevels.fadeOutAtCut : AudioLevels.fadeOut) * Double(rate)), total / 2)
        return "afade=t=in:ss=0:ns=\(max(1, fadeIn)):curve=hsin,afade=t=out:ss=\(total - fadeOut):ns=\(max(1, fadeOut)):curve=hsin"
    }
}
