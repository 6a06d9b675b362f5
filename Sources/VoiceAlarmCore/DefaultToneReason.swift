/// Why an alarm rings with the default tone instead of a voice file it could have: the typed
/// outcome of a rebuild, so callers decide on the case, never on the wording.
public enum DefaultToneReason: Equatable, Sendable, CustomStringConvertible {
    /// The "wake up to my voice" switch is off.
    case voiceOff
    /// The target has no recording yet.
    case noRecording
    /// Every clip of the target was left out (missing or no longer decodable).
    case noUsableRecording
    /// The ringtone could not be built from the recordings (the old voice file is deleted:
    /// an old recording is the wrong sound).
    case buildFailed(String)

    /// A failure a build should report, as opposed to a choice (voice off) or a state (no recording yet).
    public var isFailure: Bool {
        switch self {
        case .voiceOff, .noRecording: false
        case .noUsableRecording, .buildFailed: true
        }
    }

    /// The words kept in the library and shown as `soundReason`.
    public var description: String {
        switch self {
        case .voiceOff: "voice off"
        case .noRecording: "no recording yet"
        case .noUsableRecording: "no usable recording"
        case .buildFailed(let error): "rebuild failed: \(error)"
        }
    }
}
