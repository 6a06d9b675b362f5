import Foundation
import VoiceAlarmCore

/// What the running daemon tells the person, as values: the command line words them and decides
/// which `--quiet` keeps (the warnings).
package enum DaemonNotice: Equatable, Sendable {
    /// The library cannot be opened: the daemon rings from the scheduler's list, and why.
    case degraded(String)
    /// Alarms cannot wake this machine from suspend, and why.
    case cannotWake(WakeProblem)
    /// An alarm rings now; `due` is its ring time as ISO 8601 in the daemon's zone.
    case ringing(alarm: UUID, due: String)
    /// A test ring asked from the page rings now, for `seconds`.
    case testRing(alarm: UUID, seconds: Double)
    /// The folder test rings are asked in cannot be watched: the page's test rings wait for the
    /// daemon's next look at its list (at most its poll interval). The error.
    case testRingsUnwatched(String)
    /// An alarm was found too late to ring (more than the missed-alarm window).
    case missed(alarm: UUID, due: String, lateMinutes: Int, windowMinutes: Int)
    /// The scheduler's list could not be read; the daemon rings from the last one it read.
    case listUnreadable(String)
    /// The daemon holds its lock, but its pid could not be written into the lock file (a full
    /// disk): a second daemon refused meanwhile cannot name it. The error.
    case pidNotRecorded(String)
    /// A line could not be appended to the event log (said once): the daemon rings on, and what
    /// it would have logged (a missed alarm) is said on stderr only. The error.
    case eventLogUnwritable(String)

    /// Whether it is a warning, said even under `--quiet`.
    package var isWarning: Bool {
        switch self {
        case .degraded, .listUnreadable, .pidNotRecorded, .eventLogUnwritable, .testRingsUnwatched: true
        case .cannotWake, .ringing, .missed, .testRing: false
        }
    }
}
