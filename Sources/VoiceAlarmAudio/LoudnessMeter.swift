import VoiceAlarmCore

/// EBU R128 loudness of a stretch of audio, as libavfilter's `ebur128` filter measures it.
package struct Loudness: Equatable, Sendable, Codable {
    /// Integrated loudness in LUFS (−70 for audio below the absolute gate).
    package var integrated: Double
    /// True peak in dBTP (oversampled to 192 kHz, as `ebur128` does; see `TruePeakMeter`).
    package var truePeak: Double
    /// Largest absolute sample in dBFS.
    package var samplePeak: Double

    /// True when a listener would hear nothing: below −60 LUFS or no sample above −60 dBFS.
    package var isSilent: Bool {
        integrated < AudioLevels.silentLoudnessLUFS || samplePeak <= AudioLevels.silentPeakDBFS
    }
}

/// Measures loudness with libavfilter's `ebur128` (`peak=sample`), never by hand, as the audio
/// streams past; the true peak is `ebur128`'s own measurement, made by `TruePeakMeter` with
/// oversampling only where it can matter.
final class LoudnessMeter {
    private let chain: FilterChain
    private let truePeakMeter: TruePeakMeter?

    /// - Parameter truePeak: measure the true peak too; without it `truePeak` reports the sample
    ///   peak, for the steps that only need loudness.
    init(sampleRate: Int, path: String, truePeak: Bool = true) throws {
        chain = try FilterChain(description: "ebur128=peak=sample:metadata=1", sampleRate: sampleRate, path: path, keepSamples: false)
        truePeakMeter = truePeak ? try TruePeakMeter(sampleRate: sampleRate, path: path) : nil
    }

    func push<C: Collection>(_ samples: C) throws where C.Element == Float, C.Index == Int {
        try chain.push(samples)
        try truePeakMeter?.push(samples)
    }

    func finish() throws -> Loudness {
        let output = try chain.finish()
        func value(_ key: String) -> Double? { output.metadata["lavfi.r128.\(key)"].flatMap(Double.init) }
        let samplePeak = value("sample_peak") ?? 0
        // Audio shorter than one 400 ms block gets no integrated reading: it is as good as silent.
        return Loudness(integrated: value("I") ?? -70,
                        truePeak: AudioLevels.decibels(amplitude: try truePeakMeter?.finish() ?? samplePeak),
                        samplePeak: AudioLevels.decibels(amplitude: samplePeak))
    }
}
