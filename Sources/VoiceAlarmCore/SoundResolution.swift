/// What an alarm will actually play: its voice file, or the default tone and why.
///
/// A wrong sound is a bug; no sound is a disaster. So every doubt resolves to the default tone.
public enum SoundResolution: Equatable, Sendable {
    /// The alarm's voice ringtone, `<uuid>.<ext>` in the library's sounds folder.
    case voice(fileName: String)
    /// The default tone, and why.
    case defaultTone(DefaultToneReason)

    /// `<uuid>.<ext>` or `default`, as `alarm list --json` prints it.
    package var soundName: String {
        switch self {
        case .voice(let fileName): fileName
        case .defaultTone: "default"
        }
    }

    /// Why the default tone plays, or nil for the voice.
    package var reason: String? {
        if case .defaultTone(let reason) = self { reason.description } else { nil }
    }

    /// Why the default tone plays, typed; nil for the voice.
    public var defaultToneReason: DefaultToneReason? {
        if case .defaultTone(let reason) = self { reason } else { nil }
    }

    package static let voiceOff = SoundResolution.defaultTone(.voiceOff)
    package static let noRecording = SoundResolution.defaultTone(.noRecording)
}
