import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmStore

/// Why a `VoiceAlarmLibrary` call failed: its `kind`, for an app to decide on, and the words
/// that say it, for a person (the file, clip, playlist or alarm, and the reason), as the
/// command line says them after `error: `.
public struct VoiceAlarmError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Kind: Equatable, Sendable {
        /// The library refused a well-formed request and changed nothing: an unknown clip,
        /// playlist or alarm, a name taken or reserved, a title or label it cannot keep, or an
        /// alarm rule (five per target, one alarm per minute, none in the past).
        case refused
        /// The file given is not a recording the library keeps (missing, not audio, silent,
        /// longer than ten minutes, damaged); nothing changed.
        case unusableRecording
        /// The library's folder, database or scheduler could not be used: another user's folder,
        /// a damaged database, a full disk, a scheduler that failed.
        case library
        /// The library was closed (`VoiceAlarmLibrary.close()`); open it again.
        case closed
    }

    /// What kind of failure it is.
    public let kind: Kind
    /// The failure in one line: what, which one, and why.
    public let description: String

    /// A failure of `kind`, in these words.
    package init(kind: Kind, description: String) {
        self.kind = kind
        self.description = description
    }

    /// The failure a service error is for the app, sorted by who can fix it (`FailureKind`).
    package init(_ error: any Error) {
        if let error = error as? VoiceAlarmError {
            self = error
            return
        }
        let kind: Kind =
            switch Classified.kind(of: error) {
            case .malformed, .invalid, .notFound, .conflict, .unauthenticated, .forbidden, .limited: .refused
            case .unusableRecording: .unusableRecording
            case .environment, .diskFull: .library
            }
        self.init(kind: kind, description: SystemError.text(of: error))
    }
}
