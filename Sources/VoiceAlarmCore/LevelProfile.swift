import Foundation

/// The shape of a ringtone's level, gathered in the pass that measures its loudness: the peak
/// and the energy of every 10 ms. From it the loudness the limiter will take off at a given gain
/// is predicted, so the gain that meets the target through the limiter is chosen without passes
/// of its own; the encoding pass confirms it (the file is measured), and only a miss costs
/// another.
///
/// The prediction models the limiter (libavfilter's `alimiter`, 5 ms attack, 50 ms release) at
/// 10 ms resolution: each block whose peak, after the gain, crosses the ceiling is turned down by
/// the excess, and the turn-down recovers over the release; the loss is the energy taken off the
/// blocks the loudness gate keeps. (Letting the turn-down reach a block ahead too, for the
/// attack, over-predicted the loss by 0.3 LU on our corpus of difficult recordings: 24 of 60
/// first encodings on target instead of 51.) It is a model for choosing
/// a gain, never audio processing: the limiter that shapes the ringtone is libavfilter's.
package struct LevelProfile: Sendable {
    /// The block length, seconds.
    package static let blockSeconds = 0.01
    /// What the model's loss is scaled by: measured through libavfilter's limiter, the model's
    /// blocks over-predict the loss of peaky speech by about 8% (10 playlists of `make bench`'s
    /// speech: 4.2-5.3 LU predicted, 3.9-4.8 LU measured; scaled, every one within 0.2 LU).
    static let calibration = 0.93

    /// The limiter's attack and release, seconds: the renderer sets `alimiter` with them, and the
    /// model recovers over the same release.
    package static let attackSeconds = 0.005
    package static let releaseSeconds = 0.05
    /// Blocks quieter than this, relative to the mean energy, are left out of the loss, as the
    /// loudness gate leaves out the quiet (−10 LU relative; at 10 ms blocks, a little lower).
    static let gate = 0.05

    private let blockLength: Int
    /// Each block's largest absolute sample.
    private var peaks: [Float] = []
    /// Each block's sum of squares.
    private var energies: [Double] = []
    private var peak: Float = 0
    private var energy = 0.0
    private var count = 0

    /// An empty profile of audio at `sampleRate`; `add` the samples as they stream.
    package init(sampleRate: Int) {
        precondition(sampleRate > 0, "sample rate must be positive")
        blockLength = max(1, Int(Double(sampleRate) * Self.blockSeconds))
    }

    /// Takes the next samples, as they stream to the loudness meter.
    package mutating func add<C: Collection>(_ samples: C) where C.Element == Float {
        if let done: Void = samples.withContiguousStorageIfAvailable({ add(buffer: $0) }) { return done }
        Array(samples).withUnsafeBufferPointer { add(buffer: $0) }
    }

    /// The samples a block at a time: the peak and the energy of each stretch in one tight loop
    /// (a generic loop over the collection cost 6 % of a render).
    private mutating func add(buffer: UnsafeBufferPointer<Float>) {
        var index = 0
        while index < buffer.count {
            let end = min(buffer.count, index + blockLength - count)
            var blockPeak = peak
            var sum: Float = 0
            for sample in UnsafeBufferPointer(rebasing: buffer[index..<end]) {
                let magnitude = sample.magnitude
                blockPeak = magnitude > blockPeak ? magnitude : blockPeak
                sum += sample * sample
            }
            peak = blockPeak
            energy += Double(sum)
            count += end - index
            index = end
            if count == blockLength { closeBlock() }
        }
    }

    /// Closes the last, partial block: call once, after the last samples.
    package mutating func finish() {
        if count > 0 { closeBlock() }
    }

    private mutating func closeBlock() {
        peaks.append(peak)
        energies.append(energy)
        peak = 0
        energy = 0
        count = 0
    }

    /// The loudness (LU) the limiter is predicted to take off audio turned up by `gain` dB,
    /// its ceiling at `ceiling` dBFS.
    package func limiterLoss(gain: Double, ceiling: Double) -> Double {
        guard !energies.isEmpty else { return 0 }
        let mean = energies.reduce(0, +) / Double(energies.count)
        let recovery = exp(-Self.blockSeconds / Self.releaseSeconds)
        func excess(_ index: Int) -> Double {
            guard index < peaks.count, peaks[index] > 0 else { return 0 }
            return max(0, 20 * log10(Double(peaks[index])) + gain - ceiling)
        }
        var kept = 0.0, before = 0.0
        var held = 0.0
        for index in energies.indices {
            held = max(excess(index), held * recovery)
            guard energies[index] >= Self.gate * mean else { continue }
            before += energies[index]
            kept += energies[index] * pow(10, -held / 10)
        }
        guard before > 0, kept > 0 else { return 0 }
        return Self.calibration * 10 * log10(before / kept)
    }

    /// The most gain (dB, at most `maximum`) at which the limiter at `ceiling` dBFS is predicted to
    /// take off no more than `mostLoss` LU.
    package func mostGain(ceiling: Double, maximum: Double, mostLoss: Double) -> Double {
        guard limiterLoss(gain: maximum, ceiling: ceiling) > mostLoss else { return maximum }
        return Self.bisect(maximum - 80, maximum) { limiterLoss(gain: $0, ceiling: ceiling) <= mostLoss }
    }

    /// The largest value in `low...high` (to 0.001) for which `below` holds, `below` being true up
    /// to some point and false past it.
    private static func bisect(_ low: Double, _ high: Double, _ below: (Double) -> Bool) -> Double {
        var low = low, high = high
        while high - low > 0.001 {
            let middle = (low + high) / 2
            if below(middle) { low = middle } else { high = middle }
        }
        return low
    }

    /// The gain (dB) that brings audio measured at `loudness` LUFS to `target` through the
    /// limiter at `ceiling` dBFS, at most `maximum` dB, and no more than lets the limiter take off
    /// `mostLoss` LU; with what held it back when one of those did.
    package func gain(
        from loudness: Double, to target: Double, ceiling: Double, maximum: Double,
        mostLoss: Double
    ) -> (gain: Double, heldBack: LoudnessShortfall.Reason?) {
        let plain = target - loudness
        // Loudness through the limiter rises with the gain (the limiter never takes off more than
        // the gain added), so the gain is found by bisection.
        func reached(_ gain: Double) -> Double { loudness + gain - limiterLoss(gain: gain, ceiling: ceiling) }
        let low = min(plain, maximum)
        guard reached(maximum) >= target else {
            // Even the most gain falls short: held back by the cap, or before it by the limiter.
            if limiterLoss(gain: maximum, ceiling: ceiling) <= mostLoss { return (maximum, .gainCap) }
            return (Self.bisect(low - 60, maximum) { limiterLoss(gain: $0, ceiling: ceiling) <= mostLoss }, .limiter)
        }
        let gain = Self.bisect(low, maximum) { reached($0) < target }
        if limiterLoss(gain: gain, ceiling: ceiling) > mostLoss {
            return (Self.bisect(low - 60, gain) { limiterLoss(gain: $0, ceiling: ceiling) <= mostLoss }, .limiter)
        }
        return (gain, nil)
    }
}
