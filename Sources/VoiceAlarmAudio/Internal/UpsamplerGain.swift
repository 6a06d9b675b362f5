import Foundation
import VoiceAlarmFiles

/// The most libswresample's upsampling to 192 kHz can raise a peak, per input rate: the largest
/// L1 norm among the filter's phases, measured once per rate by sending impulses through it —
/// and how far the filter reaches (its span, in input samples), which the meter's margins must cover.
///
/// An output at phase φ is Σₖ h(φ + k)·x[n − k], so |output| ≤ max|x| · Σₖ |h(φ + k)|. One impulse
/// gives one tap per output; impulses at each offset of one period of the rate's grid give every
/// tap of every phase exactly once, grouped by the output's position between input samples.
enum UpsamplerGain {
    private static let cache = Locked<[Int: Filter]>([:])

    /// What one rate's filter can do.
    struct Filter: Sendable {
        /// The largest L1 norm of a phase.
        var gain: Double
        /// Input samples from the first output an impulse moves to the last.
        var span: Int
    }

    /// The grid where input samples and 192 kHz outputs coincide: every `inputs` input samples,
    /// every `outputs` outputs.
    static func grid(_ rate: Int) -> (inputs: Int, outputs: Int) {
        let common = gcd(rate, TruePeakMeter.oversampledRate)
        return (rate / common, TruePeakMeter.oversampledRate / common)
    }

    /// The filter for `rate`, measured on first use.
    /// - Throws: `AudioError` when libswresample cannot be set up for the rate.
    static func of(_ rate: Int, path: String) throws -> Filter {
        if let known = cache.withLock({ $0[rate] }) { return known }
        let measured = try measure(rate, path: path)
        cache.withLock { $0[rate] = measured }
        return measured
    }

    private static func measure(_ rate: Int, path: String) throws -> Filter {
        let (inputs, outputs) = grid(rate)
        let resampler = try Resampler(from: rate, to: TruePeakMeter.oversampledRate, path: path)
        var sums = [Double](repeating: 0, count: outputs)
        var span = 0
        let position = 4 * inputs * ((64 + inputs - 1) / inputs)  // well past the run's start
        for offset in 0..<inputs {
            try resampler.reset()
            var impulse = [Float](repeating: 0, count: 2 * position)
            impulse[position + offset] = 1
            let out = try resampler.convert(impulse[...]) + resampler.flush()
            if let first = out.firstIndex(where: { $0 != 0 }), let last = out.lastIndex(where: { $0 != 0 }) {
                span = max(span, ((last - first) * inputs + outputs - 1) / outputs + 1)
            }
            for (j, value) in out.enumerated() where value != 0 {
                // The output's distance past the impulse, in 1/outputs of an input sample, modulo one sample.
                let phase = ((j * inputs - (position + offset) * outputs) % outputs + outputs) % outputs
                sums[phase] += Double(abs(value))
            }
        }
        return Filter(gain: sums.max() ?? 1, span: span)
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
