/// The bounds an input recording must stay within before any work is done on it, in one place.
///
/// A file's header is read before a single sample is decoded: a stream outside these bounds is
/// refused at once, so a header that lies (a WAV claiming 5 Hz, thousands of channels) cannot
/// make a decode run for minutes or grow without bound.
///
/// ```swift
/// if let problem = InputLimits.streamProblem(sampleRate: 5, channels: 1) { throw … }   // "sample rate 5 Hz is outside …"
/// ```
package enum InputLimits {
    /// The sample rates VoiceAlarm reads, in Hz: from telephone audio to studio recordings.
    package static let sampleRates = 8_000...192_000
    /// The most channels an input may have: far beyond any recording (7.1 is 8), well below
    /// what only a damaged or hostile header claims.
    package static let maximumChannels = 32
    /// The longest recording the library keeps, in seconds (10 minutes): a clip is an
    /// affirmation, and every ringtone uses at most its first 30 s.
    package static let longestRecording = 600.0

    /// Why a stream with this rate and channel count is refused, or nil when it is within bounds.
    package static func streamProblem(sampleRate: Int, channels: Int) -> String? {
        if !sampleRates.contains(sampleRate) {
            return "sample rate \(sampleRate) Hz is outside \(sampleRates.lowerBound)–\(sampleRates.upperBound) Hz"
        }
        if channels < 1 || channels > maximumChannels {
            return "\(channels) channels; at most \(maximumChannels) are supported"
        }
        return nil
    }
}
