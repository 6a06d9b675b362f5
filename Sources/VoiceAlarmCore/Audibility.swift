import Foundation

/// Whether a recording or a ringtone is sound a person hears from a bedside speaker: the rule
/// that refuses an 18.5 kHz or a 25 Hz tone as a clip, and treats a ringtone made of one as silent.
///
/// The K-weighted loudness meter counts both tones as sound (K-weighting even lifts 18.5 kHz by
/// 4 dB), so loudness alone cannot tell. The rule compares the power of the speech band
/// (`speechBand`: where voices carry their words and what small speakers play) with the power of
/// the whole, each as an RMS level over the same stretch of audio: a sound is audible when the
/// band holds at least `leastSpeechBandShare` of it. RMS, not gated loudness: the EBU gates keep
/// only a signal's loudest blocks, so a click at the start of a 25 Hz tone would count as the
/// band's level, where the RMS spreads it over the whole.
///
/// ```swift
/// Audibility(whole: -21.0, speechBand: -21.9).isAudible  // true: speech, −0.9 dB
/// Audibility(whole: -15.1, speechBand: -84.4).isAudible  // false: an 18.5 kHz tone, −69 dB
/// ```
/// Measured (libavfilter's `astats` after the same band filters; docs/ringtone.md): SampleAudio,
/// espeak-ng's voices and every recording of the tests' difficult corpus (tone and music beds,
/// hum, noise, DC offset, hot and very quiet takes, peaky utterances) hold −0.0 to −3.7 dB; sine
/// tones at 25 Hz −61.5 dB, 40 Hz −54 dB, 60 Hz −42 dB, 12 kHz −39 dB, 18.5 kHz −69 dB.
package struct Audibility: Equatable, Sendable {
    /// The speech band, in Hz: below 200 Hz small speakers play little and voices carry no
    /// words; above 5 kHz only sibilance, and little of what older ears hear.
    package static let speechBand: ClosedRange<Double> = 200...5_000
    /// The least power the speech band may hold, relative to the whole (dB): −20 dB, a
    /// hundredth. Speech holds −3.7 dB at worst (16 dB of margin); the tones people cannot hear
    /// from a bedside speaker hold −39 dB or less (19 dB under).
    package static let leastSpeechBandShare = -20.0

    /// RMS level of the whole, dBFS.
    package var whole: Double
    /// RMS level of the speech band alone over the same stretch, dBFS (−∞ when it holds nothing).
    package var speechBand: Double

    package init(whole: Double, speechBand: Double) {
        self.whole = whole
        self.speechBand = speechBand
    }

    /// The speech band's power relative to the whole, dB (0 when all of it is in the band).
    package var share: Double { speechBand - whole }

    /// Whether a person hears it from a bedside speaker. Audio with no level at all is left to
    /// the silence rule (`AudioLevels`), which refuses it first.
    package var isAudible: Bool {
        guard whole.isFinite else { return true }
        return speechBand.isFinite && share >= Self.leastSpeechBandShare
    }

    /// Why it is inaudible, in words every surface shares; nil when it is audible.
    package var problem: String? {
        guard !isAudible else { return nil }
        let band = String(format: "%.0f Hz–%.0f kHz", Self.speechBand.lowerBound, Self.speechBand.upperBound / 1000)
        let held = speechBand.isFinite ? String(format: "%.1f dB", share) : "nothing"
        return
            "its sound lies outside what people hear from a bedside speaker: the speech band (\(band)) holds \(held) of its power, at least \(Int(Self.leastSpeechBandShare)) dB is needed"
    }
}
