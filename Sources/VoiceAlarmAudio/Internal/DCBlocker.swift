import VoiceAlarmCore

/// Removes a recording's DC offset (a cheap microphone's) as it is decoded, before anything
/// measures it, with libavfilter's `highpass`: a 2-pole Butterworth at 20 Hz, below hearing,
/// about −0.1 dB at 50 Hz.
///
/// A high-pass started from rest turns a recording that opens on its offset into a step that
/// decays over tens of milliseconds — loud enough to defeat silence trimming. So the filter is
/// first primed: it is fed a quarter second of the level the recording opens at (the mean of its
/// first 1,024 samples) and that output is dropped, so it starts settled on the offset it is
/// about to remove. The samples are delayed by nothing: what comes out is as long as what went
/// in, sample for sample.
final class DCBlocker {
    /// The filter, in FFmpeg's filtergraph syntax.
    static let filter = "highpass=f=20:poles=2"
    /// Samples the opening level is taken from.
    static let openingSamples = 1_024

    private let chain: FilterChain
    private let sampleRate: Int
    private var opening: [Float] = []
    private var primed = false
    private var output: [Float] = []

    init(sampleRate: Int, path: String) throws {
        self.sampleRate = sampleRate
        chain = try FilterChain(description: Self.filter, sampleRate: sampleRate, path: path, keepSamples: false)
        chain.onOutput = { [unowned self] in output.append(contentsOf: $0) }
    }

    /// Filters the next samples; returns what is ready (nothing until the opening is known).
    func push(_ samples: ArraySlice<Float>) throws -> [Float] {
        guard primed else {
            opening.append(contentsOf: samples)
            guard opening.count >= Self.openingSamples else { return [] }
            return try prime()
        }
        try chain.push(samples)
        return take()
    }

    /// The rest, at the end of the recording.
    func finish() throws -> [Float] {
        var rest = primed ? [] : try prime()
        _ = try chain.finish()
        rest += take()
        return rest
    }

    private func prime() throws -> [Float] {
        primed = true
        guard !opening.isEmpty else { return [] }
        let level = opening.prefix(Self.openingSamples).reduce(0, +) / Float(min(opening.count, Self.openingSamples))
        try chain.push(repeatElement(level, count: sampleRate / 4).map { $0 })
        output.removeAll(keepingCapacity: true)
        let held = opening
        opening = []
        try chain.push(held[...])
        return take()
    }

    private func take() -> [Float] {
        defer { output.removeAll(keepingCapacity: true) }
        return output
    }
}
