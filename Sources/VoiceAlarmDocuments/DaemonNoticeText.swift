import Foundation
import VoiceAlarm
import VoiceAlarmCore

/// The words for what the running daemon tells the person.
extension DaemonNotice {
    /// One line for stderr.
    package var line: String {
        switch self {
        case .degraded(let reason):
            "warning: the daemon runs degraded: \(reason); it rings from the scheduler's list (or the last one it read) — run 'voicealarm repair'"
        case .cannotWake(let reason):
            "note: alarms cannot wake this machine from suspend: \(reason.sentence())"
        case .ringing(let alarm, let due):
            "Ringing alarm \(alarm.uuidString.lowercased()) (due \(due))."
        case .testRing(let alarm, let seconds):
            "Test ring of alarm \(alarm.uuidString.lowercased()) for \(Int(seconds)) s, asked from the page."
        case .testRingsUnwatched(let error):
            "warning: the page's test rings cannot be watched for (\(error)); they wait for the daemon's next look at its alarms"
        case .missed(let alarm, let due, let late, let window):
            "missed alarm \(alarm.uuidString.lowercased()): due \(due), \(late) min late, more than \(window) min; not ringing"
        case .listUnreadable(let error):
            "warning: the daemon could not read its alarms (\(error)); ringing from the last list it read"
        case .pidNotRecorded(let error):
            "warning: the daemon's pid could not be written into its lock file (\(error)); it holds the lock and rings all the same"
        case .eventLogUnwritable(let error):
            "warning: the event log cannot be written (\(error)); the daemon rings all the same, and says here what it would have logged"
        }
    }
}
