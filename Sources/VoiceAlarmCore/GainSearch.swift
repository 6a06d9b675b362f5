/// The gain a normalised ringtone is given before the limiter, chosen once from the first
/// measurement (`LevelProfile`) and corrected only when the encoded file, measured, misses.
///
/// ```swift
/// var search = GainSearch(loudness: -24.1, profile: profile, target: -16, ceiling: -2.6)
/// // encode with search.gain, measure the file, then:
/// if search.correct(measured: -16.9) { /* encode again with search.gain */ }
/// ```
package struct GainSearch: Sendable {
    /// The limiter loss (LU) up to which the prediction is trusted to go straight to the encoder.
    /// Past it (heavy limiting, where the model strays by up to half a LU) the gain is confirmed
    /// first by a pass that only measures, so a miss costs a measurement, not an encoding.
    package static let trustedLoss = 1.0

    /// How close to the target an encoded ringtone must measure to be accepted (LU): inside the
    /// `LoudnessShortfall.band` that another meter holds it to, with room for the two meters'
    /// difference.
    package static let tolerance = 0.25

    /// The loudness before any gain, LUFS.
    package let loudness: Double
    /// The loudness asked for, LUFS.
    package let target: Double
    /// The limiter's ceiling, dBFS.
    package let ceiling: Double
    private let profile: LevelProfile
    /// The gain to encode with next, dB.
    package private(set) var gain: Double
    /// What holds the gain under the target's, when something does: the gain cap or the limiter.
    package private(set) var heldBack: LoudnessShortfall.Reason?
    /// The most gain allowed: the cap, or where the limiter would take off too much.
    private var most: Double
    private var tried: [(gain: Double, measured: Double)] = []

    /// Predicts the gain for audio measured at `loudness` LUFS with `profile`, to reach `target`
    /// LUFS through a limiter at `ceiling` dBFS.
    package init(loudness: Double, profile: LevelProfile, target: Double, ceiling: Double) {
        precondition(loudness.isFinite && target.isFinite && ceiling.isFinite, "levels are finite numbers")
        self.loudness = loudness
        self.target = target
        self.ceiling = ceiling
        self.profile = profile
        (gain, heldBack, most) = (0, nil, 0)
        predict()
    }

    private mutating func predict() {
        let predicted = profile.gain(from: loudness, to: target, ceiling: ceiling, maximum: AudioLevels.maximumGainDB,
                                     mostLoss: LoudnessShortfall.mostLimiterLoss)
        gain = predicted.gain
        heldBack = predicted.heldBack
        // Corrections stay where the model has the limiter take off no more than its most.
        most = predicted.heldBack == nil
            ? profile.mostGain(ceiling: ceiling, maximum: AudioLevels.maximumGainDB, mostLoss: LoudnessShortfall.mostLimiterLoss)
            : predicted.gain
        tried = []
    }

    /// The loudness the limiter is predicted to take off at `gain` (LU).
    package var predictedLoss: Double { profile.limiterLoss(gain: gain, ceiling: ceiling) }

    /// Takes the loudness the file encoded with `gain` measured; returns true when another gain
    /// should be tried (it is then `gain`), false when this one stands: on target, or held back
    /// (`heldBack` says by what), or no gain would do better.
    package mutating func correct(measured: Double) -> Bool {
        let off = target - measured
        guard abs(off) > Self.tolerance else { return false }
        if off > 0 {
            if gain >= AudioLevels.maximumGainDB - 0.001 { heldBack = .gainCap }
            if gain >= most - 0.001 { return false }
            // What the limiter took off, measured: past the most allowed, more gain would crush.
            if loudness + gain - measured >= LoudnessShortfall.mostLimiterLoss {
                heldBack = .limiter
                return false
            }
        }
        tried.append((gain, measured))
        // The slope of loudness against gain: between the last two tries when there are two,
        // else the model's around this gain (1 where nothing is limited, less where it is).
        var slope = 1 - (profile.limiterLoss(gain: gain + 0.5, ceiling: ceiling)
                         - profile.limiterLoss(gain: gain - 0.5, ceiling: ceiling))
        if tried.count >= 2 {
            let (a, b) = (tried[tried.count - 2], tried[tried.count - 1])
            if a.gain != b.gain { slope = (b.measured - a.measured) / (b.gain - a.gain) }
        }
        // A step at most twice the miss: a slope the limiter's noise flattened must not fling it.
        let step = max(-2 * abs(off), min(2 * abs(off), off / max(slope, 0.2)))
        let next = min(gain + step, most)
        guard abs(next - gain) >= 0.01 else { return false }
        gain = next
        return true
    }
}
