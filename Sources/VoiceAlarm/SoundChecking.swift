/// How the sound builder asks whether a voice file can be an alarm's sound: the real one decodes
/// it (`InspectingSoundChecker`); tests give a fake that counts the questions.
public protocol SoundChecking {
    /// Why the file at `path` cannot ring, or nil when it is a shippable alarm sound.
    func problem(with path: String) -> SoundProblem?
}

/// Why a voice file cannot ring.
public enum SoundProblem: Equatable, Sendable {
    /// There is no file.
    case missing
    /// It decodes but fails the shippable check (too long, wrong codec…).
    case failsCheck(String)
    /// It cannot be read or decoded.
    case unusable(String)

    /// The reason an alarm then plays the default tone, naming the file.
    func reason(for file: String) -> String {
        switch self {
        case .missing: "voice file \(file) is missing"
        case .failsCheck(let problem): "voice file \(file) fails the check: \(problem)"
        case .unusable(let error): "voice file \(file) cannot be used: \(error)"
        }
    }
}
