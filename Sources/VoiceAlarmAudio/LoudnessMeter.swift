internal import CEBUR128
import VoiceAlarmCore

/// EBU R128 loudness of a stretch of audio.
package struct Loudness: Equatable, Sendable, Codable {
    /// Integrated loudness in LUFS (−70 for audio below the absolute gate).
    package var integrated: Double
    /// True peak in dBTP (oversampled to 192 kHz, as libavfilter's `ebur128` does; see `TruePeakMeter`).
    package var truePeak: Double
    /// Largest absolute sample in dBFS.
    package var samplePeak: Double

    /// True when a listener would hear nothing: below −60 LUFS or no sample above −60 dBFS.
    package var isSilent: Bool {
        integrated < AudioLevels.silentLoudnessLUFS || samplePeak <= AudioLevels.silentPeakDBFS
    }
}

/// Measures loudness as the audio streams past, never by hand: integrated loudness and the
/// sample peak by libebur128 (ITU-R BS.1770 with the EBU R128 gates, the reading libavfilter's
/// `ebur128` gives, at two thirds of its cost in a caf batch's profile: no filter graph, no frames,
/// no conversion of the samples to doubles; the two agree within 0.05 LU on EBU Tech 3341-style
/// signals and on speech, `LoudnessMeterTests`); the
/// true peak as libavfilter's `ebur128` measures it, by `TruePeakMeter`, with oversampling only
/// where it can matter.
final class LoudnessMeter {
    private var state: UnsafeMutablePointer<ebur128_state>?
    private let path: String
    private let truePeakMeter: TruePeakMeter?
    private var pushed = 0

    /// - Parameter truePeak: measure the true peak too; without it `truePeak` reports the sample
    ///   peak, for the steps that only need loudness.
    /// - Throws: `AudioError.meter` when libebur128 cannot be set up (out of memory). The
    ///   corresponding C function is `ebur128_init`.
    init(sampleRate: Int, path: String, truePeak: Bool = true) throws {
        self.path = path
        let mode = Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_SAMPLE_PEAK.rawValue)
        guard let state = ebur128_init(1, UInt(sampleRate), mode) else {
            throw AudioError.meter(path: path, function: "ebur128_init", code: Int32(EBUR128_ERROR_NOMEM.rawValue))
        }
        self.state = state
        truePeakMeter = truePeak ? try TruePeakMeter(sampleRate: sampleRate, path: path) : nil
    }

    deinit { ebur128_destroy(&state) }

    /// The single check of a libebur128 result: anything but success throws `AudioError.meter`.
    private func check(_ code: Int32, _ function: String) throws {
        guard code != Int32(EBUR128_SUCCESS.rawValue) else { return }
        throw AudioError.meter(path: path, function: function, code: code)
    }

    /// Takes the next samples. The corresponding C function is `ebur128_add_frames_float`.
    func push<C: Collection>(_ samples: C) throws where C.Element == Float, C.Index == Int {
        let code =
            samples.withContiguousStorageIfAvailable { buffer in
                ebur128_add_frames_float(state, buffer.baseAddress, buffer.count)
            } ?? Array(samples).withUnsafeBufferPointer { ebur128_add_frames_float(state, $0.baseAddress, $0.count) }
        try check(code, "ebur128_add_frames_float")
        pushed += samples.count
        try truePeakMeter?.push(samples)
    }

    /// The loudness of everything pushed. The corresponding C functions are
    /// `ebur128_loudness_global` and `ebur128_sample_peak`.
    func finish() throws -> Loudness {
        var integrated = -Double.infinity
        var samplePeak = 0.0
        if pushed > 0 {
            try check(ebur128_loudness_global(state, &integrated), "ebur128_loudness_global")
            try check(ebur128_sample_peak(state, 0, &samplePeak), "ebur128_sample_peak")
        }
        // Audio shorter than one 400 ms block, or all under the absolute gate, has no integrated
        // reading: −70, as libavfilter reports it; as good as silent.
        let reading = integrated.isFinite ? max(integrated, -70) : -70
        return Loudness(
            integrated: reading,
            truePeak: AudioLevels.decibels(amplitude: try truePeakMeter?.finish() ?? samplePeak),
            samplePeak: AudioLevels.decibels(amplitude: samplePeak))
    }
}
