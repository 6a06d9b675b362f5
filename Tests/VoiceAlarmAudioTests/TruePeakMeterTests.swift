import Foundation
import TestSupport
import Testing
import VoiceAlarmCore

@testable import VoiceAlarmAudio

/// A signal for the true-peak table: a name, its rate, and its samples.
struct PeakSignal: CustomTestStringConvertible, Sendable {
    var name: String
    var sampleRate: Int
    var samples: @Sendable () throws -> [Float]
    /// The loudest moment lies in the last 100 ms, after ebur128's last report.
    var peakInTail = false
    var testDescription: String { "\(name) at \(sampleRate) Hz" }

    /// A sine of `amplitude` at `frequency`, starting at `phase` (radians), `seconds` long.
    static func sine(_ name: String, rate: Int, frequency: Double, phase: Double, amplitude: Double = 0.9, seconds: Double = 3) -> PeakSignal {
        PeakSignal(
            name: name, sampleRate: rate,
            samples: {
                (0..<Int(seconds * Double(rate))).map { Float(amplitude * sin(2 * .pi * frequency * Double($0) / Double(rate) + phase)) }
            }, peakInTail: seconds < 0.1)
    }

    /// Quiet noise with one loud burst of a quarter-rate sine (45° off the samples) at `position` (0…1).
    static func burst(at position: Double, rate: Int) -> PeakSignal {
        PeakSignal(
            name: "burst at \(Int(position * 100)) %", sampleRate: rate,
            samples: {
                var generator = SeededGenerator(seed: 29)
                var samples = (0..<rate * 4).map { _ in Float.random(in: -0.05...0.05, using: &generator) }
                let start = min(samples.count - 64, Int(position * Double(samples.count)))
                for i in 0..<64 { samples[start + i] = Float(0.95 * sin(Double.pi / 2 * Double(i) + .pi / 4)) }
                return samples
            }, peakInTail: position == 1)
    }

    /// A decoded SampleAudio file at `rate`.
    static func file(_ name: String, rate: Int) -> PeakSignal {
        PeakSignal(name: name, sampleRate: rate) { try AudioDecoder(path: "\(ProjectPaths.sampleAudio)/\(name)", sampleRate: rate).readAll() }
    }
}

private let baseSignals: [PeakSignal] = [
    // Sines at a quarter of the rate, 45° off: every sample at 0.707 of the peak (−3 dB under the true peak).
    .sine("quarter-rate sine 45° off", rate: 48_000, frequency: 12_000, phase: .pi / 4),
    .sine("quarter-rate sine 45° off", rate: 44_100, frequency: 11_025, phase: .pi / 4),
    .sine("near-Nyquist sine", rate: 44_100, frequency: 19_000, phase: 0.3),
    .sine("low sine", rate: 22_050, frequency: 440, phase: 0, amplitude: 0.5),
    .sine("quarter-rate sine 45° off", rate: 96_000, frequency: 24_000, phase: .pi / 4),
    .sine("short sine (under one window)", rate: 44_100, frequency: 11_025, phase: .pi / 4, seconds: 0.02),
    PeakSignal(name: "alternating full scale", sampleRate: 44_100) { (0..<44_100).map { $0 % 2 == 0 ? 1 : -1 } },
    PeakSignal(name: "silence", sampleRate: 44_100) { [Float](repeating: 0, count: 44_100) },
    PeakSignal(name: "noise", sampleRate: 44_100) {
        var generator = SeededGenerator(seed: 7)
        return (0..<88_200).map { _ in Float.random(in: -0.8...0.8, using: &generator) }
    },
    .burst(at: 0, rate: 44_100), .burst(at: 0.5, rate: 44_100), .burst(at: 1, rate: 44_100), .burst(at: 0.5, rate: 48_000),
    .file("manifesto.flac", rate: 44_100), .file("calm.wav", rate: 48_000), .file("ready.mp3", rate: 16_000),
    .file("kind.ogg", rate: 8_000), .file("grateful.m4a", rate: 11_025), .file("strong.flac", rate: 32_000), .file("calm.wav", rate: 88_200),
    // Sparse grids (an input sample meets a 192 kHz output every 44,101 or 8,017 samples): one continuous run.
    .sine("quarter-rate sine 45° off", rate: 44_101, frequency: 44_101.0 / 4, phase: .pi / 4), .file("ready.mp3", rate: 8_017),
]

/// Lengths at the edges of the windows: one short of a window, a window, a window and a margin
/// (less one), and two windows.
private func edgeSignals(rate: Int, window: Int, margin: Int) -> [PeakSignal] {
    [window - 1, window, window + margin - 1, window + margin, 2 * window].map { (length: Int) -> PeakSignal in
        let seconds = Double(length) / Double(rate) + 1e-9
        return PeakSignal.sine("\(length)-sample sine", rate: rate, frequency: Double(rate) / 4, phase: .pi / 4, seconds: seconds)
    }
}

private let peakSignals = baseSignals + edgeSignals(rate: 44_100, window: 2_058, margin: 147) + edgeSignals(rate: 48_000, window: 2_048, margin: 64)

@Suite("The windowed true peak is the whole 4× measurement")
struct TruePeakMeterTests {
    @Test("The windowed true peak equals the whole-stream 4× measurement (to 0.01 dB), which is ebur128's", arguments: peakSignals)
    func equalsFullMeasurement(_ signal: PeakSignal) throws {
        let samples = try signal.samples()
        // The whole stream through the same 192 kHz upsampler, every output looked at.
        let whole = try Resampler(from: signal.sampleRate, to: TruePeakMeter.oversampledRate, path: signal.name)
        let full = try whole.convert(samples[...]).reduce(0.0) { max($0, Double(abs($1))) }
        let meter = try TruePeakMeter(sampleRate: signal.sampleRate, path: signal.name)
        for start in stride(from: 0, to: samples.count, by: 3_001) { try meter.push(samples[start..<min(samples.count, start + 3_001)]) }
        let windowed = try meter.finish()
        if full > 0 {
            #expect(
                abs(AudioLevels.decibels(amplitude: windowed) - AudioLevels.decibels(amplitude: full)) <= 0.01,
                "windowed \(AudioLevels.decibels(amplitude: windowed)) dBTP, whole stream \(AudioLevels.decibels(amplitude: full)) dBTP")
        } else {
            #expect(windowed == 0)
        }
        // ebur128 itself (peak=true) reports the same, to the three decimals of its metadata;
        // it reports every 100 ms, so a peak in the last 100 ms is past its last report.
        let ebur128 = try FilterChain.run("ebur128=peak=true:metadata=1", on: samples, sampleRate: signal.sampleRate, path: signal.name, keepSamples: false)
        let report = ebur128.metadata["lavfi.r128.true_peak"].flatMap(Double.init)
        if signal.peakInTail {
            #expect((report ?? 0) <= full + 0.0005)
        } else {
            let reported = try #require(report)
            #expect(abs(reported - full) <= 0.0005 + 1e-9, "ebur128 \(reported), whole stream \(full)")
        }
    }

    @Test("Speech needs far fewer windows oversampled than it has", arguments: ["manifesto.flac", "calm.wav", "kind.ogg"])
    func skipsQuietWindows(_ name: String) throws {
        let samples = try AudioDecoder(path: "\(ProjectPaths.sampleAudio)/\(name)", sampleRate: 44_100).readAll()
        let meter = try TruePeakMeter(sampleRate: 44_100, path: name)
        try meter.push(samples)
        _ = try meter.finish()
        #expect(meter.windowsOversampled * 3 < meter.windowsSeen * 2, "\(meter.windowsOversampled) of \(meter.windowsSeen) windows oversampled")
    }

    @Test("The bound is a bound: no output of the upsampler exceeds the input peak times the gain", arguments: [8_000, 16_000, 22_050, 44_100, 48_000, 96_000])
    func gainBoundsEveryOutput(_ rate: Int) throws {
        let filter = try UpsamplerGain.of(rate, path: "gain")
        let gain = filter.gain
        #expect(gain >= 1 && gain < 3, "gain \(gain) at \(rate) Hz")
        #expect(filter.span > 8 && filter.span <= 64, "span \(filter.span) at \(rate) Hz")
        // The worst input for a phase is the signs of its taps: a full-scale alternating pattern
        // comes close; noise and sines never pass the bound.
        for signal in [
            PeakSignal.sine("sine", rate: rate, frequency: Double(rate) / 4, phase: .pi / 4, amplitude: 1),
            PeakSignal(name: "alternating", sampleRate: rate) { (0..<rate).map { $0 % 2 == 0 ? 1 : -1 } },
        ] {
            let resampler = try Resampler(from: rate, to: TruePeakMeter.oversampledRate, path: "gain")
            let peak = try resampler.convert(try signal.samples()[...]).reduce(0.0) { max($0, Double(abs($1))) }
            #expect(peak <= gain, "\(signal.name): \(peak) over the bound \(gain)")
        }
    }
}
