import VoiceAlarm
import VoiceAlarmCore

/// One thing the machine's health says, for the phone's page: a stable `code` the page decides
/// on, the sentence in the page's words, whether it stops alarms from ringing, and what the page
/// itself can do about it (`"startService"`), if anything, and whether only the machine's owner
/// can (`owner`: the page shows those on its Machine view alone, not over the alarms).
/// `{"code", "sentence", "stopsRinging", "action", "owner"}`.
package struct HealthJSON: Encodable {
    package var code: String
    package var sentence: String
    package var stopsRinging: Bool
    package var action: Nullable<String>
    package var owner: Bool

    /// `problem` as the page shows it; `canStartService` when the daemon's service is installed
    /// where a user manager runs it, but not running (the page offers to start it).
    package init(_ problem: Doctor.Problem, libraryOpens: Bool, canStartService: Bool) {
        code = problem.code
        sentence = problem.sentence(libraryOpens: libraryOpens, on: .page)
        stopsRinging = problem.isFailure
        owner = !problem.isFailure && problem.isOwnersMatter
        if case .scheduler(.noDaemon, _) = problem, canStartService { action = .init("startService") } else { action = .init(nil) }
    }
}

extension Doctor.Problem {
    /// Whether it is a matter for the machine's owner, at the machine (how VoiceAlarm is
    /// installed, the sound server's lingering, a web service that is down), not something a
    /// person at bedtime can act on from the phone.
    var isOwnersMatter: Bool {
        switch self {
        case .buildFolder, .webServiceDown, .scheduler(.lingeringOff, _), .scheduler(.unitDirectoryNotRead, _), .drift, .schedulerUncomparable:
            true
        default: false
        }
    }

    /// A stable name for the kind of problem (`noDaemon`, `deviceDoesNotOpen`…).
    package var code: String {
        switch self {
        case .libraryUnopenable: "libraryUnopenable"
        case .daemonDegraded: "daemonDegraded"
        case .defaultToneUnavailable: "defaultToneUnavailable"
        case .deviceDoesNotOpen: "deviceDoesNotOpen"
        case .scheduler(let problem, _):
            switch problem {
            case .noDaemon: "noDaemon"
            case .noUserManager: "noUserManager"
            case .unitDirectoryNotRead: "unitDirectoryNotRead"
            case .lingeringOff: "lingeringOff"
            }
        case .buildFolder: "buildFolder"
        case .drift: "drift"
        case .schedulerUncomparable: "schedulerUncomparable"
        case .unreadableAlarmRecords: "unreadableAlarmRecords"
        case .voiceFileUnreadable: "voiceFileUnreadable"
        case .webServiceDown: "webServiceDown"
        case .nothingRingsSoon: "nothingRingsSoon"
        }
    }
}
