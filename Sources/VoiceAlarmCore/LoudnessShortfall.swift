import Foundation

/// A ringtone left under its loudness target by more than the accuracy band, and why: never
/// silent, it is reported by `render`, `check`, `batch` and `build`, in their text and JSON
/// (`"shortfall": {"by", "target", "reason", "detail"}` inside `loudness`).
public struct LoudnessShortfall: Equatable, Sendable, Codable {
    /// How far under the target the result may be without being a shortfall (LU): what the
    /// tests hold every ringtone to, measured by another meter (pyloudnorm).
    package static let band = 0.5
    /// The most loudness the limiter may take off (LU) on the way to the target. Speech is peaky:
    /// under the ceiling a lossy ringtone needs (−2.6 dBFS), reaching −16 LUFS takes 3–4.5 LU off
    /// most of our corpus of difficult recordings, clean speech included. 6 LU leaves room for
    /// that; past it a ringtone on target would be more limiter than voice (pumping, flattened
    /// consonants), so it stays quieter and says why.
    package static let mostLimiterLoss = 6.0

    /// Why the target was not met.
    public enum Reason: String, Sendable, Codable, CaseIterable {
        /// The +20 dB gain cap on a near-silent take (its noise is not blown up further).
        case gainCap
        /// Meeting the target would make the limiter take off more than `mostLimiterLoss`.
        case limiter
        /// The encoded file was turned down to keep its true peak under the ceiling.
        case truePeak
        /// No longer given (processing 3 on: the gain search converges or names a ceiling); read
        /// back from the records of ringtones an earlier processing made.
        case unsettled
        /// (`check`, on any file) quiet with room under the ceiling: another program's file, or
        /// a VoiceAlarm ringtone at the gain cap.
        case quiet
        /// (`check`, on any file) at the true-peak ceiling: louder would need limiting.
        case ceiling
    }

    /// LU under the target (positive).
    public var by: Double
    /// The target, LUFS.
    public var target: Double
    /// Why the target was not met.
    public var reason: Reason

    /// A ringtone `by` LU (rounded to 0.1) under `target`, for `reason`.
    package init(by: Double, target: Double, reason: Reason) {
        precondition(by > 0, "a shortfall is under the target")
        self.by = (by * 10).rounded() / 10
        self.target = target
        self.reason = reason
    }

    /// A file whose true peak lies within this of the ceiling (dB) is at the ceiling, for `check`:
    /// a VoiceAlarm m4a on target peaks about 1.2 dB under it, one turned down for the ceiling
    /// 0.5–3 dB under it, one at the gain cap far lower.
    package static let nearCeiling = 3.5

    /// The shortfall of any file measured at `integrated` LUFS with a true peak of `truePeak`
    /// dBTP against `target`, as `check` tells it: at the ceiling or quiet, since how it was made
    /// is not known.
    package static func of(file integrated: Double, truePeak: Double, target: Double) -> LoudnessShortfall? {
        of(integrated, target: target, reason: truePeak >= AudioLevels.truePeakCeilingDBTP - nearCeiling ? .ceiling : .quiet)
    }

    /// The shortfall of a ringtone measured at `integrated` LUFS against `target`, when it is more
    /// than `band` under it; nil when it is on target (or over it).
    package static func of(_ integrated: Double, target: Double, reason: Reason) -> LoudnessShortfall? {
        let under = target - integrated
        return under > band ? LoudnessShortfall(by: under, target: target, reason: reason) : nil
    }

    /// What the reason means, for people.
    public var detail: String {
        switch reason {
        case .gainCap: "the +\(Int(AudioLevels.maximumGainDB)) dB gain cap on a near-silent take"
        case .limiter: String(format: "reaching it would make the limiter take off more than %.0f LU", Self.mostLimiterLoss)
        case .truePeak: String(format: "turned down after encoding to keep the true peak under %.0f dBTP", AudioLevels.truePeakCeilingDBTP)
        case .unsettled: "the gain through the limiter did not settle in the encodings a render allows"
        case .quiet: "quiet, with room under the true-peak ceiling"
        case .ceiling: "at the true-peak ceiling: louder would need limiting"
        }
    }

    /// One line: `6.2 LU under the -16 LUFS target: the +20 dB gain cap on a near-silent take`.
    public var summary: String {
        String(format: "%.1f LU under the %g LUFS target: ", by, target) + detail
    }

    /// `{"by", "target", "reason", "detail"}`, as the JSON reports print it.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(by, forKey: .by)
        try c.encode(target, forKey: .target)
        try c.encode(reason, forKey: .reason)
        try c.encode(detail, forKey: .detail)
    }

    /// Reads `encode(to:)`'s form back, refusing a shortfall that is not a positive number of LU.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let by = try c.decode(Double.self, forKey: .by)
        guard by > 0, by.isFinite else {
            throw DecodingError.dataCorruptedError(forKey: .by, in: c, debugDescription: "a shortfall is a positive number of LU")
        }
        self.init(by: by, target: try c.decode(Double.self, forKey: .target), reason: try c.decode(Reason.self, forKey: .reason))
    }

    private enum CodingKeys: String, CodingKey { case by, target, reason, detail }
}
