import VoiceAlarm
import VoiceAlarmCore

/// One thing the machine's health says, for the phone's page: a stable `code` the page decides
/// on, the sentence in the page's words, whether it stops alarms from ringing, and what the page
/// itself can do about it (`"startService"`), if anything.
/// `{"code", "sentence", "stopsRinging", "action"}`.
package struct HealthJSON: Encodable {
    package var code: String
    package var sentence: String
    package var stopsRinging: Bool
    package var action: Nullable<String>

    /// `problem` as the page shows it; `canStartService` when the daemon's service is installed
    /// where a user manager runs it, but not running (the page offers to start it).
    package init(_ problem: Doctor.Problem, libraryOpens: Bool, canStartService: Bool) {
        code = problem.code
        sentence = problem.sentence(libraryOpens: libraryOpens, on: .page)
        stopsRinging = problem.isFailure
        if case .scheduler(.noDaemon, _) = problem, canStartService { action = .init("startService") } else { action = .init(nil) }
    }
}

extension Doctor.Problem {
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
        }
    }
}
