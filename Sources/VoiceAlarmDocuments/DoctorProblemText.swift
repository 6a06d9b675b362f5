import Foundation
import VoiceAlarm

/// The words for what `doctor` found: each problem says what it stops and what to do.
extension Doctor.Problem {
    /// One sentence; `libraryOpens` tells the advice for a library that opened from one that did not.
    package func sentence(libraryOpens: Bool) -> String {
        switch self {
        case .libraryUnopenable(let error):
            return "the library cannot be opened (\(error)); the alarms ring from what their scheduler holds"
        case .daemonDegraded(let reason):
            return "the daemon runs degraded: \(reason)" + (libraryOpens ? "; run 'voicealarm repair', then restart it" : "")
        case .defaultToneUnavailable(let error):
            return "the default tone cannot be made" + (error.map { ": \($0)" } ?? "")
        case .deviceDoesNotOpen(let device, let error):
            let choose = "'voicealarm devices --playback' lists the devices that play; choose one with 'voicealarm settings device NAME'"
            if !libraryOpens { return "the sound device '\(device)' does not open (\(error)); rings will fail unless --device names one that does" }
            if device == "default" { return "the sound device 'default' does not open (\(error)); rings cannot play on it — \(choose)" }
            return "the sound device '\(device)' does not open (\(error)); rings fall back to 'default' — \(choose)"
        case .scheduler(let problem, _):
            return problem.sentence
        case .buildFolder(let executable):
            return "the alarms run \(executable), inside a build folder: 'make clean' or moving the checkout would stop them; "
                + "run 'make install' (an installed voicealarm on PATH is used instead), then 'voicealarm reconcile'"
        case .drift(let first, let more):
            return "\(first)" + (more > 0 ? " (and \(more) more like it)" : "") + "; run 'voicealarm reconcile'"
        case .schedulerUncomparable(let error):
            return "the scheduler cannot be compared with the library (\(error)); run 'voicealarm reconcile'"
        case .unreadableAlarmRecords(let count, let first):
            return "\(count == 1 ? "an alarm's record" : "\(count) alarms' records") cannot be read "
                + "(\(first.uuidString.lowercased())\(count > 1 ? ", …" : "")): they ring only as their scheduler last held them; "
                + "run 'voicealarm repair'"
        case .voiceFileUnreadable(let path, let owner, let alarm):
            return "voice file \(path) belongs to \(owner) and cannot be read by you: alarm \(alarm.uuidString.lowercased()) "
                + "would ring the default tone; 'voicealarm build --all' makes it again as yours"
        case .webServiceDown(let unit):
            return "the web server's service \(unit) is installed but not running: the web page is down; alarms still ring. "
                + "'journalctl --user -u \(unit)' says why it stopped; 'systemctl --user restart \(unit)' starts it again"
        }
    }
}
