/// How long a clip is once its silence is trimmed, in output samples, as far as it was measured.
///
/// Measuring stops as soon as a clip is known not to fit, so a long recording is never decoded
/// whole: its extent is then only a lower bound.
package enum ClipExtent: Equatable, Sendable {
    /// The clip was read to its end: exactly this many samples.
    case exact(Int)
    /// The clip was read only until it was known to be longer than this many samples.
    case longerThan(Int)
}
