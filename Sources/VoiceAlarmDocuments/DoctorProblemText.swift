import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmScheduling

/// The words for what `doctor` found: each problem says what it stops and what to do — at the
/// terminal with the command that does it, on the page with what the person can do from the
/// phone or ask of the machine's owner (never a command line, never an id).
extension Doctor.Problem {
    /// One sentence; `libraryOpens` tells the advice for a library that opened from one that did not.
    package func sentence(libraryOpens: Bool, on surface: Surface = .terminal) -> String {
        surface == .terminal ? terminal(libraryOpens: libraryOpens) : page
    }

    private func terminal(libraryOpens: Bool) -> String {
        switch self {
        case .libraryUnopenable(let error):
            return "the library cannot be opened (\(error)); the alarms ring from what their scheduler holds; 'voicealarm repair' restores it from its backup"
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
            return problem.sentence(on: .terminal)
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
        case .nothingRingsSoon(true, _):
            return "every alarm is off: nothing will ring ('voicealarm alarm on ID' turns one on again)"
        case .nothingRingsSoon(false, let next):
            return "nothing rings in the next \(Doctor.quietDays) days"
                + (next.map { " (the next ring is \(LocalTimeText.short($0, .current)))" } ?? "") + ": 'voicealarm alarm list' shows why"
        }
    }

    private var page: String {
        let owner = "ask the machine's owner to repair the library"
        switch self {
        case .libraryUnopenable:
            return "The alarm library cannot be opened: alarms ring as last scheduled, and nothing can be changed; \(owner)."
        case .daemonDegraded:
            return "The alarm service runs without its library: alarms ring as last scheduled; \(owner)."
        case .defaultToneUnavailable:
            return "The default tone cannot be made: an alarm without a voice ringtone may be silent."
        case .deviceDoesNotOpen(let device, _):
            return "The sound device '\(device)' does not open: alarms may not be heard; the machine's owner can choose another."
        case .scheduler(let problem, _):
            return problem.sentence(on: .page)
        case .buildFolder:
            return "The alarms run a copy of VoiceAlarm inside a build folder: cleaning it would stop them; the machine's owner should install VoiceAlarm."
        case .drift(let first, let more):
            let count = more + 1
            let what =
                switch first {
                case .notHeld: "is not scheduled: nothing will ring it"
                case .stale: "is scheduled with another time or sound than set here"
                case .unknown: "is scheduled but no longer known here"
                case .missingSound: "would ring the default tone: its voice file is missing"
                }
            return (count == 1 ? "An alarm \(what)" : "\(count) alarms: each \(what)") + "; ask the machine's owner to bring the alarms in step."
        case .schedulerUncomparable:
            return "What is scheduled cannot be checked against the alarms set here; ask the machine's owner to bring them in step."
        case .unreadableAlarmRecords(let count, _):
            return "\(count == 1 ? "An alarm" : "\(count) alarms") cannot be read: \(count == 1 ? "it rings" : "they ring") only as last scheduled; \(owner)."
        case .voiceFileUnreadable:
            return
                "A voice ringtone belongs to another account and cannot be read: its alarm would ring the default tone; switch its voice off and on to make it again."
        case .webServiceDown:
            return "The web page's service is installed but not running."
        case .nothingRingsSoon(true, _):
            return "Every alarm is off: nothing will ring."
        case .nothingRingsSoon(false, _):
            return "Nothing rings in the next \(Doctor.quietDays) days."
        }
    }
}

extension Doctor.ServiceReport {
    /// Its state in words: `not installed (…)`, `enabled, running; lingering off`.
    package func words(web: Bool, on surface: Surface = .terminal) -> String {
        guard state.installed else {
            guard surface == .terminal else { return "not installed" }
            return web
                ? "not installed ('voicealarm service install --web' keeps the web page up)"
                : "not installed ('voicealarm service install' keeps the daemon running)"
        }
        guard state.managed else {
            return surface == .terminal ? "installed as \(unit); no systemd user manager manages it here" : "installed, but no service manager runs it here"
        }
        let lingering = web || state.lingering ? "" : (surface == .terminal ? "; lingering off" : "; runs only while the owner is logged in")
        let shipped = shipped && surface == .terminal ? " (\(name), installed with the package)" : ""
        return "\(state.enabled ? "enabled" : "not enabled"), \(state.running ? "running" : "not running")" + lingering + shipped
    }
}

extension WakeProblem {
    /// Why alarms cannot wake this machine from suspend, and what would let them.
    package func sentence(on surface: Surface = .terminal) -> String {
        switch (self, surface) {
        case (.needsCapability(let executable), .terminal):
            "this process may not use CLOCK_REALTIME_ALARM (it needs CAP_WAKE_ALARM): sudo setcap cap_wake_alarm+ep \(executable)"
        case (.clockUnavailable(let reason), .terminal): "CLOCK_REALTIME_ALARM is not available here (\(reason))"
        case (.noTimer(let error), .terminal): "no timer file descriptor (\(error)); sleeping in 5-second slices"
        case (.systemdTimers, .terminal):
            "systemd user timers cannot wake a suspended machine (WakeSystem= needs privileges a user manager lacks); "
                + "the embedded daemon can: 'voicealarm --scheduler embedded reconcile' and 'voicealarm service install'"
        case (.needsCapability, .page): "the alarm service may not wake the machine from sleep; its owner can allow it"
        case (.clockUnavailable, .page), (.noTimer, .page): "this machine has no clock that wakes it from sleep"
        case (.systemdTimers, .page): "the system's timers cannot wake the machine from sleep; the built-in alarm service can"
        }
    }
}

extension UserServiceUnit {
    /// How a person reads its name: for the package's unit, that the package installed it, and where.
    package var called: String {
        isShipped ? "\(name) (installed with the package, \(path))" : name
    }
}
