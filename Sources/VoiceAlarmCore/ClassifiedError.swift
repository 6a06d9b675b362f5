/// What kind of failure an error is: decided once, where the error is defined, so that every
/// surface treats it alike — the command line's exit status and `--json` error object, the web
/// API's HTTP status, the app library's `VoiceAlarmError.Kind`.
package enum FailureKind: Sendable, Equatable {
    /// A request not made as it must be (HTTP 400; the command line's code 64).
    case malformed
    /// It names something the library does not have (404).
    case notFound
    /// A rule of the library refuses it (409): a sixth alarm, the same minute, a clip alarms
    /// play, a name taken, an id that matches several.
    case conflict
    /// A value the library cannot keep (400): a name, a title, a position out of range.
    case invalid
    /// Whoever asked is not known (401): not paired, revoked, no page session.
    case unauthenticated
    /// Refused for what was presented (403): a wrong pairing code, a bad signature.
    case forbidden
    /// Too many tries lately: try again in `retryAfter` seconds (429).
    case limited(retryAfter: Int)
    /// The file given is not a recording the library keeps: not audio, silent, too long (422).
    case unusableRecording
    /// The machine failed: the disk, a permission, a damaged database, a scheduler (500).
    case environment
    /// The disk (or the account's quota) is full (507): nothing was kept, and the same request
    /// works once there is room.
    case diskFull
}

/// An error that says what kind of failure it is and what it is about. The one classification
/// the command line, the web API and the app library read (no surface keeps a table of error
/// types of its own); the words for a person are the surface's (`VoiceAlarmDocuments`).
package protocol ClassifiedError: Error {
    /// What kind of failure it is.
    var failureKind: FailureKind { get }
    /// The file, id, name or option it is about, as the person gave it; nil when it names none.
    var failureInput: String? { get }
}

/// What any error is, read through `ClassifiedError`: for code that holds an `any Error`.
package enum Classified {
    /// Its own kind when it is classified, else the machine's (`environment`).
    package static func kind(of error: any Error) -> FailureKind {
        (error as? any ClassifiedError)?.failureKind ?? .environment
    }

    /// What it is about, when it says.
    package static func input(of error: any Error) -> String? {
        (error as? any ClassifiedError)?.failureInput
    }
}
