import Foundation
import Testing
import VoiceAlarmCore

/// A profile at 1 kHz (10-sample blocks) of `blocks`: each a steady level with one peak.
private func profile(_ blocks: [(level: Float, peak: Float)]) -> LevelProfile {
    var profile = LevelProfile(sampleRate: 1_000)
    for block in blocks {
        profile.add([block.peak] + [Float](repeating: block.level, count: 9))
    }
    profile.finish()
    return profile
}

@Suite("The gain is predicted from the one measuring pass, and only a miss costs another encoding")
struct GainSearchTests {
    @Test("Nothing crosses the ceiling: no loss, and the gain is the plain difference")
    func unlimited() {
        let quiet = profile(Array(repeating: (0.01, 0.02), count: 300))
        #expect(quiet.limiterLoss(gain: 6, ceiling: -2.6) == 0)
        let found = quiet.gain(from: -30, to: -16, ceiling: -2.6, maximum: 20, mostLoss: 6)
        #expect(abs(found.gain - 14) < 0.01 && found.heldBack == nil)
    }

    @Test("The predicted loss grows with the gain once peaks cross the ceiling, and the gain found meets the target through it")
    func lossGrows() {
        // Speech-like: steady blocks with sparse loud peaks.
        let peaky = profile((0..<400).map { $0 % 10 == 0 ? (0.05, 0.25) : (0.05, 0.1) })
        let losses = stride(from: 0.0, through: 18, by: 3).map { peaky.limiterLoss(gain: $0, ceiling: -2.6) }
        #expect(losses.first == 0)
        #expect(zip(losses, losses.dropFirst()).allSatisfy { $0 <= $1 }, "\(losses)")
        #expect(losses.last! > 1)
        let found = peaky.gain(from: -30, to: -16, ceiling: -2.6, maximum: 20, mostLoss: 6)
        let reached = -30 + found.gain - peaky.limiterLoss(gain: found.gain, ceiling: -2.6)
        #expect(abs(reached + 16) < 0.01 && found.heldBack == nil && found.gain > 14)
    }

    @Test(
        "Held back, and by what",
        arguments: [
            // A near-silent take: even +20 dB falls short, and the limiter is not why.
            (-50.0, (Float(0.001), Float(0.002)), 20.0, LoudnessShortfall.Reason.gainCap),
            // A square wave at full scale: every block limited, so the loss stops the gain first.
            (-40.0, (Float(0.9), Float(0.9)), -1, LoudnessShortfall.Reason.limiter),
        ])
    func heldBack(_ loudness: Double, _ block: (Float, Float), _ expectedGain: Double, _ reason: LoudnessShortfall.Reason) {
        let steady = profile(Array(repeating: block, count: 300))
        let found = steady.gain(from: loudness, to: -16, ceiling: -2.6, maximum: 20, mostLoss: 6)
        #expect(found.heldBack == reason)
        if expectedGain >= 0 { #expect(found.gain == expectedGain) }
        #expect(steady.limiterLoss(gain: found.gain, ceiling: -2.6) <= 6.001)
    }

    @Test("A hit stands; a miss moves the gain towards the target; at the cap it stands, held back")
    func correction() {
        let peaky = profile((0..<400).map { $0 % 10 == 0 ? (0.05, 0.25) : (0.05, 0.1) })
        var search = GainSearch(loudness: -30, profile: peaky, target: -16, ceiling: -2.6)
        let first = search.gain
        let triesAgainWhenClose = search.correct(measured: -16.2)
        #expect(!triesAgainWhenClose, "within the tolerance")
        #expect(search.gain == first)
        let triesAgainWhenShort = search.correct(measured: -16.8)
        #expect(triesAgainWhenShort, "0.8 LU short is a miss")
        #expect(search.gain > first)
        let second = search.gain
        let triesAgainWhenOver = search.correct(measured: -15.4)
        #expect(triesAgainWhenOver, "over by 0.6: back down")
        #expect(search.gain < second && search.gain > first)

        var quiet = GainSearch(loudness: -50, profile: profile(Array(repeating: (0.001, 0.002), count: 300)), target: -16, ceiling: -2.6)
        #expect(quiet.gain == 20 && quiet.heldBack == .gainCap)
        let triesAgainAtCap = quiet.correct(measured: -30)
        #expect(!triesAgainAtCap, "no more gain to give")
    }

    @Test("The limiter is held to its most, measured: a miss it caused is not chased")
    func measuredLimiterLoss() {
        let peaky = profile((0..<400).map { $0 % 10 == 0 ? (0.05, 0.25) : (0.05, 0.1) })
        var search = GainSearch(loudness: -30, profile: peaky, target: -16, ceiling: -2.6)
        // The file measured 6.5 LU under what the gain alone would give: the limiter took that off.
        let triesAgainWhenCrushed = search.correct(measured: -30 + search.gain - 6.5)
        #expect(!triesAgainWhenCrushed)
        #expect(search.heldBack == .limiter)
    }

    /// The loudness a limiter the model misjudges gives at `gain`: the model's, less `miss` LU per
    /// LU of predicted loss (a limiter harder than the model, as on dense beds).
    private static func misjudged(_ profile: LevelProfile, _ gain: Double, ceiling: Double, miss: Double) -> Double {
        let loss = profile.limiterLoss(gain: gain, ceiling: ceiling)
        return -30 + gain - loss * (1 + miss)
    }

    @Test(
        "Where the model misjudges the limiter, the tries converge inside a bracket and end on the best, or name a ceiling", arguments: [0.15, 0.25, 0.4, -0.3])
    func converges(_ miss: Double) {
        let peaky = profile((0..<400).map { $0 % 10 == 0 ? (0.05, 0.25) : (0.05, 0.1) })
        var search = GainSearch(loudness: -30, profile: peaky, target: -16, ceiling: -2.6)
        var tries = 0
        var measured = Self.misjudged(peaky, search.gain, ceiling: -2.6, miss: miss)
        while tries < 4, search.correct(measured: measured) {
            tries += 1
            measured = Self.misjudged(peaky, search.gain, ceiling: -2.6, miss: miss)
        }
        // Short of the target only at a ceiling (the gain cap, the limiter's most), never unsettled.
        #expect(abs(measured + 16) <= GainSearch.tolerance || search.heldBack != nil, "\(tries) corrections, ended at \(measured) LUFS")
        #expect(search.best.map { abs($0.measured + 16) <= abs(measured + 16) } == true)
    }

    @Test("The proposal stays inside the bracket of measured gains: the secant, else the middle")
    func bracket() {
        let under = GainSearch.Try(gain: 4, ceiling: -2.6, measured: -17)
        let over = GainSearch.Try(gain: 6, ceiling: -2.6, measured: -15)
        #expect(GainSearch.within(under, over, 5.5, target: -16) == 5.5)
        #expect(GainSearch.within(under, over, 9, target: -16) == 5)
        #expect(GainSearch.within(under, over, 9, target: -15.5) == 5.5)
        #expect(GainSearch.within(under, GainSearch.Try(gain: 4.01, ceiling: -2.6, measured: -15), 9, target: -16) == nil)
        #expect(GainSearch.within(nil, over, 9, target: -16) == 9)
    }

    @Test("A lower ceiling for the true peak keeps the target: the gain predicted again rises with the limiter's loss")
    func lowerCeiling() {
        let peaky = profile((0..<400).map { $0 % 10 == 0 ? (0.05, 0.25) : (0.05, 0.1) })
        var search = GainSearch(loudness: -30, profile: peaky, target: -16, ceiling: -2.6)
        let first = search.gain
        search.lowerCeiling(by: 1, measured: -16)
        #expect(search.ceiling == -3.6 && search.gain > first)
        let reached = -30 + search.gain - peaky.limiterLoss(gain: search.gain, ceiling: -3.6)
        #expect(abs(reached + 16) < 0.05, "the model at the new ceiling reaches \(reached)")
    }
}

@Suite("A loudness shortfall is typed, stated and never silent")
struct LoudnessShortfallTests {
    @Test(
        "Inside the band there is none; under it, by how much",
        arguments: [
            (-16.0, nil), (-16.5, nil), (-15.0, nil), (-16.51, 0.5), (-18.96, 3.0), (-39.4, 23.4),
        ] as [(Double, Double?)])
    func band(_ integrated: Double, _ by: Double?) {
        #expect(LoudnessShortfall.of(integrated, target: -16, reason: .limiter)?.by == by)
    }

    @Test(
        "What check says of a file it did not make: at the ceiling, or quiet",
        arguments: [
            (-1.3, LoudnessShortfall.Reason.ceiling), (-4.4, .ceiling), (-4.6, .quiet), (-21.0, .quiet),
        ])
    func checkReason(_ truePeak: Double, _ reason: LoudnessShortfall.Reason) {
        #expect(LoudnessShortfall.of(file: -18, truePeak: truePeak, target: -16)?.reason == reason)
    }

    @Test("Its JSON carries the reason and the sentence; a decoded one must be under the target")
    func json() throws {
        let short = LoudnessShortfall(by: 1.26, target: -16, reason: .truePeak)
        let text = String(decoding: try JSONEncoder().encode(short), as: UTF8.self)
        for part in [#""by":1.3"#, #""reason":"truePeak""#, #""target":-16"#, "true peak under -1 dBTP"] {
            #expect(text.contains(part), "\(text)")
        }
        #expect(try JSONDecoder().decode(LoudnessShortfall.self, from: Data(text.utf8)) == short)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(LoudnessShortfall.self, from: Data(#"{"by": -2, "target": -16, "reason": "quiet"}"#.utf8))
        }
        #expect(short.summary == "1.3 LU under the -16 LUFS target: turned down after encoding to keep the true peak under -1 dBTP")
    }
}
