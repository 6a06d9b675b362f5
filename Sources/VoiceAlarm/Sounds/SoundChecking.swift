import VoiceAlarmCore

/// How the sound builder asks whether a voice file can be an alarm's sound: the real one decodes
/// it (`InspectingSoundChecker`); tests give a fake that counts the questions.
package protocol SoundChecking {
    /// Why the file at `path` cannot ring, or nil when it is a shippable alarm sound.
    func problem(with path: String) -> SoundProblem?
}
