import Foundation

/// The levels VoiceAlarm's audio decisions rest on, in one place.
package enum AudioLevels {
    /// A take or a result with no sample above this (dBFS) is silent.
    package static let silentPeakDBFS = -60.0
    /// A take or a result quieter than this (integrated LUFS) is silent.
    package static let silentLoudnessLUFS = -60.0
    /// Leading and trailing samples quieter than this (dBFS) are silence to trim.
    /// A clip with nothing above it is kept whole (it is quiet, not empty).
    package static let trimThresholdDBFS = -50.0
    /// Audio kept before the first and after the last sample above the trim threshold, in seconds,
    /// so soft consonants are not clipped.
    package static let trimPadding = 0.05
    /// The highest true peak a shipped ringtone may have, measured after encoding (dBTP).
    package static let truePeakCeilingDBTP = -1.0
    /// The most gain normalisation applies (dB), so a quiet recording's noise is not blown up.
    package static let maximumGainDB = 20.0
    /// Fade-in at the start of every ringtone, in seconds (no click at the loop seam).
    package static let fadeIn = 0.01
    /// Fade-out at the end of a ringtone that ends naturally, in seconds.
    package static let fadeOut = 0.05
    /// Fade-out when the ringtone ends on a cut at the cap, in seconds.
    package static let fadeOutAtCut = 0.5
    /// Fade over each edge of a clip that is not already silent, inside the ringtone, in seconds:
    /// a raised cosine this short is not heard as a fade, and leaves no click where a clip cut
    /// through a tone, a noise bed or a DC offset meets the next clip or a gap.
    package static let clipEdgeFade = 0.005
    /// A clip edge with no sample above this (dBFS) is silent and needs no fade: low enough that
    /// the most gain normalisation applies (+20 dB) still leaves its step under −60 dBFS.
    package static let silentEdgeDBFS = -80.0

    /// A linear amplitude for a level in dB.
    package static func amplitude(dB: Double) -> Double { pow(10, dB / 20) }
    /// A level in dB for a linear amplitude (−infinity for 0).
    package static func decibels(amplitude: Double) -> Double { amplitude > 0 ? 20 * log10(amplitude) : -.infinity }
}
