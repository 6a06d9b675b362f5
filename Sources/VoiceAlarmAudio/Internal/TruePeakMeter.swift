import Foundation

/// The true peak of a stream as libavfilter's `ebur128` (`peak=true`) measures it, oversampling
/// only the stretches where it can matter.
///
/// `ebur128` upsamples the audio to 192 kHz with libswresample's default filter and takes the
/// largest absolute value that comes out; here the same filter runs in single precision
/// (`ebur128` runs it in double: the two differ by far less than the 0.001 it reports). Every output is a weighted sum of the inputs near it,
/// so none can exceed the largest nearby input times the largest L1 norm of the filter's phases
/// (`UpsamplerGain`, measured once per rate by sending impulses through the same resampler: the
/// taps are read, never written here). The audio is cut into windows; a window whose bound (its
/// peak, margins included, times that norm) cannot beat the largest true peak found so far cannot
/// change the result and is not oversampled. The others are upsampled from `margin` input
/// samples before them (past the filter's reach), so every output kept is the one the
/// whole-stream run computes: windows start on the rate's grid (where an input sample and a
/// 192 kHz output coincide), the first window where the stream does, and the stream is not
/// flushed at its end, as in `ebur128`. The result is the whole-stream measurement, not an
/// estimate (`TruePeakMeterTests` compare the two).
///
/// A rate whose grid is sparse (an input sample meets a 192 kHz output less often than every
/// `densestGrid` samples: 44 101 Hz, say, but none of the usual rates) is upsampled whole, in one
/// run: measuring its filter would cost more than it saves.
final class TruePeakMeter {
    /// The rate `ebur128` measures true peaks at.
    static let oversampledRate = 192_000
    /// The longest grid period (input samples) windows are used for: 147 at 44.1 kHz, 1 at 48 kHz.
    static let densestGrid = 160

    private let path: String
    private let upsampler: Resampler
    /// nil: every window is upsampled, in one continuous run (a sparse grid).
    private let gain: Double?
    /// Input samples per window and per margin: whole periods of the rate's grid.
    let window: Int
    let margin: Int
    /// Input and output samples per period of the rate's grid.
    private let grid: (inputs: Int, outputs: Int)
    /// The largest magnitude in `samples` (a loop the compiler turns into vector compares).
    static func peak(of samples: ArraySlice<Float>) -> Float {
        samples.withUnsafeBufferPointer { buffer in
            var result: Float = 0
            for sample in buffer {
                let magnitude = sample.magnitude
                result = magnitude > result ? magnitude : result
            }
            return result
        }
    }

    /// Samples not yet decided, from `start`: the left margin (once past the stream's start),
    /// then the window and the right margin. Decided ones are dropped now and then, not each time.
    private var pending: [Float] = []
    private var start = 0
    private var atStart = true
    private var peak: Double = 0
    /// Windows oversampled and windows seen, for the tests and the benchmark.
    private(set) var windowsOversampled = 0
    private(set) var windowsSeen = 0

    /// - Parameters:
    ///   - sampleRate: the rate of the samples pushed.
    ///   - path: the file the audio belongs to, for error messages.
    init(sampleRate: Int, path: String) throws {
        self.path = path
        grid = UpsamplerGain.grid(sampleRate)
        upsampler = try Resampler(from: sampleRate, to: Self.oversampledRate, path: path)
        guard grid.inputs <= Self.densestGrid else {
            (window, margin, gain) = (0, 0, nil)
            return
        }
        window = (2048 + grid.inputs - 1) / grid.inputs * grid.inputs
        margin = (64 + grid.inputs - 1) / grid.inputs * grid.inputs
        let filter = try UpsamplerGain.of(sampleRate, path: path)
        gain = filter.gain
        precondition(margin >= filter.span, "a margin of \(margin) samples under the filter's span of \(filter.span) at \(sampleRate) Hz")
    }

    func push<C: Collection>(_ samples: C) throws where C.Element == Float {
        guard gain != nil else {
            // A sparse grid: one continuous run, every output looked at, never flushed (as ebur128).
            let out = try upsampler.convert(Array(samples)[...])
            peak = max(peak, Double(Self.peak(of: out[...])))
            return
        }
        pending += samples
        while pending.count - start >= (atStart ? 0 : margin) + window + margin {
            try decide(pending[start..<start + (atStart ? 0 : margin) + window + margin], final: false)
        }
        if start >= 1 << 16 {
            pending.removeFirst(start)
            start = 0
        }
    }

    /// The true peak, as an amplitude (1 = full scale).
    func finish() throws -> Double {
        if pending.count - start > (atStart ? 0 : margin) { try decide(pending[start...], final: true) }
        pending = []
        start = 0
        return peak
    }

    /// Oversamples the window in `segment` (after its left margin) when its bound can beat the
    /// peak so far, then drops it from `pending`, keeping the next window's left margin.
    private func decide(_ segment: ArraySlice<Float>, final: Bool) throws {
        let left = atStart ? 0 : margin
        windowsSeen += 1
        if Double(Self.peak(of: segment)) * gain! * (1 + 1e-6) > peak {
            windowsOversampled += 1
            try upsampler.reset()
            let out = try upsampler.convert(segment)
            // Outputs of the left margin are shaped by this run's start, not the stream's: the
            // window before kept them. Those of the right margin go to the window after.
            let first = left / grid.inputs * grid.outputs
            let end = first + window / grid.inputs * grid.outputs
            precondition(final || out.count >= end, "the upsampler held back more than the margin")
            let last = final ? out.count : end
            if first < last { peak = max(peak, Double(Self.peak(of: out[first..<last]))) }
        }
        start = final ? pending.count : start + left + window - margin
        atStart = false
    }
}
