/// The gain a normalised ringtone is given before the limiter: predicted once from the one pass
/// that measures (`LevelProfile`), and corrected only when the encoded file, measured, misses.
///
/// The search converges or names a ceiling. Each measured encoding moves the model by what it
/// missed (its bias) and narrows a bracket (a gain measured under the target, one over it); a
/// proposal outside the bracket is replaced by the secant inside it, so the tries bisect a
/// loudness that rises with the gain. The renderer bounds the tries and keeps the best result
/// found (`best`).
///
/// ```swift
/// var search = GainSearch(loudness: -24.1, profile: profile, target: -16, ceiling: -2.6)
/// // encode with search.gain at search.ceiling, measure the file, then:
/// if search.correct(measured: -16.9) { /* encode again with search.gain */ }
/// ```
package struct GainSearch: Sendable {
    /// How close to the target an encoded ringtone must measure to be accepted (LU): inside the
    /// `LoudnessShortfall.band` that another meter holds it to, with room for the two meters'
    /// difference (pyloudnorm and `ebur128` differ by at most 0.1 LU on our corpora).
    package static let tolerance = 0.3

    /// One measured try.
    package struct Try: Sendable, Equatable {
        package var gain: Double
        package var ceiling: Double
        package var measured: Double

        package init(gain: Double, ceiling: Double, measured: Double) {
            self.gain = gain
            self.ceiling = ceiling
            self.measured = measured
        }
    }

    /// The loudness before any gain, LUFS.
    package let loudness: Double
    /// The loudness asked for, LUFS.
    package let target: Double
    /// The limiter's ceiling, dBFS (lowered by `lowerCeiling(by:)`).
    package private(set) var ceiling: Double
    private let profile: LevelProfile
    /// The gain to encode with next, dB.
    package private(set) var gain: Double
    /// What holds the gain under the target's, when something does: the gain cap or the limiter.
    package private(set) var heldBack: LoudnessShortfall.Reason?
    /// The try closest to the target so far.
    package private(set) var best: Try?
    /// The most gain allowed: the cap, or where the limiter would take off too much.
    private var most: Double
    /// What the measurements showed the model to miss by (LU, measured minus predicted).
    private var bias = 0.0
    /// The highest gain measured under the target and the lowest over it, at this ceiling.
    private var under: Try?
    private var over: Try?

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

    /// The gain the model, moved by its measured bias, gives for the target at the ceiling.
    private mutating func predict() {
        let predicted = profile.gain(
            from: loudness + bias, to: target, ceiling: ceiling, maximum: AudioLevels.maximumGainDB,
            mostLoss: LoudnessShortfall.mostLimiterLoss)
        gain = predicted.gain
        heldBack = predicted.heldBack
        // Corrections stay where the model has the limiter take off no more than its most.
        most =
            predicted.heldBack == nil
            ? profile.mostGain(ceiling: ceiling, maximum: AudioLevels.maximumGainDB, mostLoss: LoudnessShortfall.mostLimiterLoss)
            : predicted.gain
    }

    /// Lowers the limiter's ceiling by `decibels` (the file encoded with `gain` came out with its
    /// true peak too high, measuring `measured` LUFS) and predicts the gain that keeps the target
    /// there, moved by what the model was seen to miss by.
    package mutating func lowerCeiling(by decibels: Double, measured: Double) {
        precondition(decibels > 0, "the ceiling only comes down")
        bias = measured - (loudness + gain - profile.limiterLoss(gain: gain, ceiling: ceiling))
        ceiling -= decibels
        (under, over) = (nil, nil)
        predict()
    }

    /// Takes the loudness the file encoded with `gain` measured; returns true when another gain
    /// should be tried (it is then `gain`), false when this one stands: on target, or held back
    /// (`heldBack` says by what), or no gain would do better.
    package mutating func correct(measured: Double) -> Bool {
        let tried = Try(gain: gain, ceiling: ceiling, measured: measured)
        if best.map({ abs(measured - target) < abs($0.measured - target) }) ?? true { best = tried }
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
            if under.map({ gain > $0.gain }) ?? true { under = tried }
        } else if over.map({ gain < $0.gain }) ?? true {
            over = tried
        }
        bias = measured - (loudness + gain - profile.limiterLoss(gain: gain, ceiling: ceiling))
        let proposed = profile.gain(from: loudness + bias, to: target, ceiling: ceiling, maximum: most, mostLoss: .infinity).gain
        guard let next = Self.within(under, over, proposed, target: target) else { return false }
        guard abs(next - gain) >= 0.01 else { return false }
        gain = next
        return true
    }

    /// `proposed` when it lies strictly between the bracket's ends; else the secant between
    /// them towards `target`, else their middle; nil when the bracket is too narrow for any gain
    /// to do better.
    package static func within(_ under: Try?, _ over: Try?, _ proposed: Double, target: Double) -> Double? {
        guard let under, let over else { return proposed }
        let (low, high) = (under.gain, over.gain)
        guard high - low >= 0.02 else { return nil }
        let inside = { (value: Double) in value > low + 0.005 && value < high - 0.005 }
        if inside(proposed) { return proposed }
        let rise = over.measured - under.measured
        if rise > 0 {
            let secant = low + (high - low) * (target - under.measured) / rise
            if inside(secant) { return secant }
        }
        return (low + high) / 2
    }
}
