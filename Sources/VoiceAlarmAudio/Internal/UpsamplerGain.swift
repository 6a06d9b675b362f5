import Foundation
import Synchronization

/// The most libswresample's upsampling to 192 kHz can raise a peak, per input rate: the largest
/// L1 norm among the filter's phases, measured once per rate by sending impulses through it.
///
/// An output at phase φ is Σₖ h(φ + k)·x[n − k], so |output| ≤ max|x| · Σₖ |h(φ + k)|. One impulse
/// gives one tap per output; impulses at each offset of one period of the rate's grid give every
/// tap of every phase exactly once, grouped by the output's position between input samples.
enum UpsamplerGain {
    private static let cache = Mutex<[Int: Double]>([:])

    /// The grid where input samples and 192 kHz outputs coincide: every `inputs` input samples,
    /// every `outputs` outputs.
    static func grid(_ rate: Int) -> (inputs: Int, outputs: Int) {
        let common = gcd(rate, TruePeakMeter.oversampledRate)
        return (rate / common, TruePeakMeter.oversampledRate / common)
    }

    /// The gain for `rate`, measured on first use.
    /// - Throws: `AudioError` when libswresample cannot be set up for the rate.
    static func of(_ rate: Int, path: String) throws -> Double {
        if let known = cache.withLock({ $0[rate] }) { return known }
        let measured = try measure(rate, path: path)
        cache.withLock { $0[rate] = measured }
        return measured
    }

    private static func measure(_ rate: Int, path: String) throws -> Double {
        let (inputs, outputs) = grid(rate)
        let resampler = try Resampler(from: rate, to: TruePeakMeter.oversampledRate, input: Double.self, path: path)
        var sums = [Double](repeating: 0, count: outputs)
        let position = 4 * inputs * ((64 + inputs - 1) / inputs)   // well past the run's start
        for offset in 0..<inputs {
            try resampler.reset()
            var impulse = [Double](repeating: 0, count: 2 * position)
            impulse[position + offset] = 1
            let out = try resampler.convert(impulse) + resampler.flush()
            for (j, value) in out.enumerated() where value != 0 {
                // The output's distance past the impulse, in 1/outputs of an input sample, modulo one sample.
                let phase = ((j * inputs - (position + offset) * outputs) % outputs + outputs) % outputs
                sums[phase] += abs(value)
            }
        }
        return sums.max() ?? 1
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
