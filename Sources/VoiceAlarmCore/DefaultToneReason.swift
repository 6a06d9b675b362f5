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
    /// The ringtone would be inaudible, treated as silent: its sound lies outside what people
    /// hear from a bedside speaker (`Audibility.problem` says how). The old voice file is deleted.
    case inaudible(String)
    /// The voice file named cannot ring, and why (checked at listing or ring time).
    case voiceFile(String, SoundProblem)
    /// A reason the library holds in words this version does not know (written by another).
    case recorded(String)

    /// The reason the library holds as `text` (`description` of one this type made).
    package init(recorded text: String) {
        let failed = DefaultToneReason.buildFailed("").description
        let inaudible = DefaultToneReason.inaudible("").description
        switch text {
        case DefaultToneReason.voiceOff.description: self = .voiceOff
        case DefaultToneReason.noRecording.description: self = .noRecording
        case DefaultToneReason.noUsableRecording.description: self = .noUsableRecording
        case _ where text.hasPrefix(failed): self = .buildFailed(String(text.dropFirst(failed.count)))
        case _ where text.hasPrefix(inaudible): self = .inaudible(String(text.dropFirst(inaudible.count)))
        default: self = .recorded(text)
        }
    }

    /// A failure a build should report, as opposed to a choice (voice off) or a state (no recording yet).
    public var isFailure: Bool {
        switch self {
        case .voiceOff, .noRecording: false
        case .noUsableRecording, .buildFailed, .inaudible, .voiceFile, .recorded: true
        }
    }

    /// The words kept in the library and shown as `soundReason`.
    public var description: String {
        switch self {
        case .voiceOff: "voice off"
        case .noRecording: "no recording yet"
        case .noUsableRecording: "no usable recording"
        case .buildFailed(let error): "rebuild failed: \(error)"
        case .inaudible(let problem): "the ringtone would be inaudible: \(problem)"
        case .voiceFile(let file, let problem): problem.reason(for: file)
        case .recorded(let text): text
        }
    }
}
