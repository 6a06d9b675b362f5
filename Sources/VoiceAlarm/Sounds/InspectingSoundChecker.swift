import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles

/// The real `SoundChecking`: decodes the whole file with `SoundInspector` and applies the
/// shippable rules (`voicealarm check`).
package struct InspectingSoundChecker: SoundChecking {
    package init() {}

    package func problem(with path: String) -> SoundProblem? {
        guard FileSystem.kind(of: path) != .missing else { return .missing }
        do {
            if let problem = try SoundInspector.inspect(path).problems.first { return .failsCheck(problem) }
            return nil
        } catch {
            return .unusable(SystemError.text(of: error, path: path))
        }
    }
}
