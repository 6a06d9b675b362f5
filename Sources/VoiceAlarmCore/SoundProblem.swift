/// Why a voice file cannot ring.
public enum SoundProblem: Equatable, Sendable {
    /// There is no file.
    case missing
    /// This user may not read it (another user, root, wrote it): a ring would fail to open it.
    case unreadable
    /// It decodes but fails the shippable check (too long, wrong codec…).
    case failsCheck(String)
    /// It cannot be read or decoded.
    case unusable(String)

    /// The reason an alarm then plays the default tone, naming the file.
    public func reason(for file: String) -> String {
        switch self {
        case .missing: "voice file \(file) is missing"
        case .unreadable: "voice file \(file) cannot be read by you (another user wrote it)"
        case .failsCheck(let problem): "voice file \(file) fails the check: \(problem)"
        case .unusable(let error): "voice file \(file) cannot be used: \(error)"
        }
    }
}
