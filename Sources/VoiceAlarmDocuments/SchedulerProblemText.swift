import Foundation
import VoiceAlarmCore

/// The words for what stops a scheduler from ringing: each says what it stops and what to do.
extension SchedulerProblem {
    /// One sentence, without the `warning: ` before it: at the terminal with the command, on
    /// the page with who must do what.
    package func sentence(on surface: Surface = .terminal) -> String {
        switch (self, surface) {
        case (.noDaemon(let dataDirectory), .terminal):
            "no 'voicealarm daemon' is running for \(dataDirectory): nothing will ring these alarms; start one with 'voicealarm daemon' (or use --scheduler systemd)"
        case (.noDaemon, .page):
            "Nothing will ring: the alarm service is not running on \(Self.host). Start it on the machine, or ask its owner to."
        case (.noUserManager(let unitDirectory), .terminal):
            "no systemd user manager is running: the timers in \(unitDirectory) are written but nothing will ring them. "
                + "On a machine with one: systemctl --user daemon-reload && systemctl --user enable --now 'voicealarm-*.timer'"
        case (.noUserManager, .page):
            "Nothing will ring: no service manager runs the alarms' timers on \(Self.host); its owner must start one."
        case (.unitDirectoryNotRead(let unitDirectory, let systemdReads), .terminal):
            "\(unitDirectory) is not where systemd reads user units (\(systemdReads)): link them with 'systemctl --user link'"
        case (.unitDirectoryNotRead, .page):
            "Nothing will ring: the alarms' timers are kept where \(Self.host)'s service manager does not look; its owner must link them."
        case (.lingeringOff, .terminal):
            "lingering is off: the alarms ring only while you are logged in (loginctl enable-linger)"
        case (.lingeringOff, .page):
            "The alarms ring only while the machine's owner is logged in on \(Self.host)."
        }
    }

    /// The machine's name, as the person calls it.
    static var host: String {
        let name = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? ""
        return name.isEmpty ? "the bedside machine" : name
    }
}
