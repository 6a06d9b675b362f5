import Foundation
import VoiceAlarmCore

/// Measures what `Audibility` decides on: the RMS level of the whole and of the speech band
/// alone, as the audio streams past.
///
/// The band is cut by libavfilter (`highpass` and `lowpass`, each twice: 24 dB per octave at
/// `Audibility.speechBand`'s edges); the levels are sums of squares over every sample.
///
/// ```swift
/// let meter = try SpeechBandMeter(sampleRate: 44_100, path: "take.wav")
/// try meter.push(samples)
/// let audible = try meter.finish().isAudible
/// ```
package final class SpeechBandMeter {
    private let chain: FilterChain
    private var whole = Power()

    /// A running sum of squares.
    private struct Power {
        var sum = 0.0
        var count = 0
        mutating func add<C: Collection>(_ samples: C) where C.Element == Float {
            for sample in samples { sum += Double(sample) * Double(sample) }
            count += samples.count
        }
        var level: Double { count == 0 ? -.infinity : AudioLevels.decibels(amplitude: (sum / Double(count)).squareRoot()) }
    }

    /// A box for the band's sum, which the filter chain's output fills.
    private final class Box {
        var power = Power()
    }
    private let box = Box()

    /// - Throws: `AudioError.ffmpeg` when libavfilter cannot set the band filters up (the
    ///   machine's failure, not the audio's).
    package init(sampleRate: Int, path: String) throws {
        chain = try FilterChain(description: Self.filters(sampleRate: sampleRate), sampleRate: sampleRate, path: path, keepSamples: false)
        chain.onOutput = { [box] in box.power.add($0) }
    }

    /// The band filters at `sampleRate`: the upper edge kept under the Nyquist frequency.
    static func filters(sampleRate: Int) -> String {
        let low = Audibility.speechBand.lowerBound
        let high = min(Audibility.speechBand.upperBound, 0.45 * Double(sampleRate))
        let highpass = String(format: "highpass=f=%.0f:poles=2", low)
        let lowpass = String(format: "lowpass=f=%.0f:poles=2", high)
        return [highpass, highpass, lowpass, lowpass].joined(separator: ",")
    }

    /// Takes the next samples.
    package func push<C: Collection>(_ samples: C) throws where C.Element == Float, C.Index == Int {
        whole.add(samples)
        try chain.push(samples)
    }

    /// The levels of everything pushed.
    package func finish() throws -> Audibility {
        _ = try chain.finish()
        return Audibility(whole: whole.level, speechBand: box.power.level)
    }
}
