import Foundation
import VoiceAlarmCore

/// The words for what stops a scheduler from ringing: each says what it stops and what to do.
extension SchedulerProblem {
    /// One sentence, without the `warning: ` before it.
    package var sentence: String {
        switch self {
        case .noDaemon(let dataDirectory):
            "no 'voicealarm daemon' is running for \(dataDirectory): nothing will ring these alarms; start one with 'voicealarm daemon' (or use --scheduler systemd)"
        case .noUserManager(let unitDirectory):
            "no systemd user manager is running: the timers in \(unitDirectory) are written but nothing will ring them. "
                + "On a machine with one: systemctl --user daemon-reload && systemctl --user enable --now 'voicealarm-*.timer'"
        case .unitDirectoryNotRead(let unitDirectory, let systemdReads):
            "\(unitDirectory) is not where systemd reads user units (\(systemdReads)): link them with 'systemctl --user link'"
        case .lingeringOff:
            "lingering is off: the alarms ring only while you are logged in (loginctl enable-linger)"
        }
    }
}
