import VoiceAlarmCore
import VoiceAlarmFiles

/// The error behind a warning, kept as a value: what kind of failure it was (`FailureKind`:
/// the machine's, or the recording's), what it was about, and what it said. A caller decides on
/// the kind without reading the words; a surface words the warning around them.
public struct WarningCause: Sendable, Equatable, CustomStringConvertible {
    /// Who can fix it.
    package let kind: FailureKind
    /// The file, id or name it is about, when it says.
    package let input: String?
    /// The error in one line (the file and the reason).
    public let description: String
    /// The reason alone, for a warning that names the file itself (`No space left on device`).
    package let reason: String

    package init(_ error: any Error) {
        kind = Classified.kind(of: error)
        input = Classified.input(of: error)
        description = SystemError.text(of: error)
        reason = (error as? SystemError)?.reason ?? description
    }
}
