import VoiceAlarmCore

/// The words for what an alarm plays.
extension SoundResolution {
    /// "playing your voice (FILE)", "with the default tone (REASON)": how a sentence about an alarm ends.
    package var playing: String {
        switch self {
        case .voice(let file): "playing your voice (\(file))"
        case .defaultTone(let reason): "with the default tone (\(reason))"
        }
    }
}
