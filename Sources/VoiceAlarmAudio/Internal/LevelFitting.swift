import VoiceAlarmCore

/// The encodings of a normalised render: the one encoding at the predicted level, and, only
/// after a miss, a bounded few more, ending on the best file found.
///
/// A file measured off the target moves the gain (`GainSearch`: the model corrected by its
/// miss, inside a bracket of measured gains). A file whose encoded true peak is over the
/// accepted ceiling lowers the limiter's ceiling by the excess and predicts the gain again for
/// the target (AAC's peak error is a burst that another encoding rarely repeats); only after two
/// of those is the limited audio turned down as a whole, the true peak winning over the loudness.
struct LevelFitting {
    /// Encodings at most while the level is fitted (the first included).
    static let encodings = 5
    /// Times at most the limiter's ceiling is lowered for an encoded true peak over the ceiling.
    static let ceilingDrops = 2
    /// The encoded true peak accepted, 0.2 dB under the ceiling so that another meter
    /// (another resampler for the oversampling) cannot find the ceiling crossed.
    static let acceptedTruePeak = AudioLevels.truePeakCeilingDBTP - 0.2
    /// How much further than the excess the ceiling or the level comes down (dB): the codec's
    /// peaks move a little with the level, not exactly by it.
    static let margin = 0.2

    /// The limiter's first ceiling (dBFS): 1.4 dB under the accepted true peak for AAC and MP3,
    /// whose encoders raise the true peak (median 0.4 dB over the limiter on our corpus of
    /// difficult recordings, with rarer bursts of 1-4 dB), 0.3 dB for the others (16-bit PCM, IMA4).
    static func ceiling(for codec: RingtoneCodec) -> Double {
        acceptedTruePeak - ([.aac, .mp3].contains(codec) ? 1.4 : 0.3)
    }

    let passes: RenderPasses
    let fades: String
    /// What an encoded file must pass, and what makes it silent (throws).
    let check: (SoundFacts, Loudness) throws -> Void

    /// What the fitting ended on.
    struct Result {
        var facts: SoundFacts
        var loudness: Loudness
        var shortfall: LoudnessShortfall?
    }

    /// Encodes into `temporary` until the file is on target (or held back by a ceiling), counting
    /// the encodings in `count`; the file left in `temporary` is the result's.
    func run(_ search: GainSearch, to temporary: String, count: inout RenderReport.Passes) throws -> Result {
        var search = search
        var level = RingtoneFilters.Level(gain: search.gain, ceiling: search.ceiling)
        var drops = 0
        var best: (level: RingtoneFilters.Level, result: Result)?
        var last: RingtoneFilters.Level?
        let target = search.target
        while true {
            let (facts, loudness) = try passes.encode(through: RingtoneFilters.chain(fades, level), to: temporary)
            count.encode += 1
            try check(facts, loudness)
            last = level
            let left = count.encode < Self.encodings
            let excess = loudness.truePeak - Self.acceptedTruePeak
            if excess > 0 {
                guard left else { break }
                if drops < Self.ceilingDrops {
                    drops += 1
                    search.lowerCeiling(by: excess + Self.margin, measured: loudness.integrated)
                    level = .init(gain: search.gain, ceiling: search.ceiling)
                } else {
                    level.trim -= excess + Self.margin
                }
                continue
            }
            let result = Result(facts: facts, loudness: loudness, shortfall: nil)
            if best.map({ abs(loudness.integrated - target) < abs($0.result.loudness.integrated - target) }) ?? true {
                best = (level, result)
            }
            guard level.trim == 0, left else { break }
            if search.correct(measured: loudness.integrated) {
                level = .init(gain: search.gain, ceiling: search.ceiling)
                continue
            }
            // Still over the target when no gain does better: turned down by the excess, a
            // change of level alone, which lands on the target.
            let over = loudness.integrated - target
            guard over > GainSearch.tolerance else { break }
            level.trim = -over
        }
        guard let found = best else {
            throw AudioError.invalidOutput(
                path: passes.output, reason: String(format: "true peak stays above %.1f dBTP after encoding", AudioLevels.truePeakCeilingDBTP))
        }
        var result = found.result
        if found.level != last {
            // The last try was not the best: the best one encoded again (the same level, the same file).
            let (facts, loudness) = try passes.encode(through: RingtoneFilters.chain(fades, found.level), to: temporary)
            count.encode += 1
            try check(facts, loudness)
            result = Result(facts: facts, loudness: loudness, shortfall: nil)
        }
        let under = target - result.loudness.integrated
        // The reason is a ceiling: the true-peak trim when it explains the gap, the gain cap or the
        // limiter's most, the true-peak ceiling that lowered the limiter; else the limiter's loss,
        // the one thing a bounded search can be kept off the target by (a plain gain lands at once).
        let reason: LoudnessShortfall.Reason =
            found.level.trim < 0 && under <= -found.level.trim + 0.1
            ? .truePeak
            : search.heldBack ?? (drops > 0 ? .truePeak : .limiter)
        result.shortfall = LoudnessShortfall.of(result.loudness.integrated, target: target, reason: reason)
        return result
    }
}
