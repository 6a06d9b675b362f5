import Foundation

/// What stops a scheduling backend from ringing the alarms, as a value: the backend tells what
/// it found, the command line alone words it (with what to do), so rewording one never changes
/// what a caller decides.
package enum SchedulerProblem: Equatable, Sendable {
    /// The embedded backend: no `voicealarm daemon` runs for this data dir.
    case noDaemon(dataDirectory: String)
    /// The systemd backend: no user manager runs, so the timers written in `unitDirectory` are
    /// never started.
    case noUserManager(unitDirectory: String)
    /// The systemd backend writes its units in `unitDirectory`, where systemd does not read
    /// them (it reads `systemdReads`).
    case unitDirectoryNotRead(unitDirectory: String, systemdReads: String)
    /// The systemd backend: lingering is off, so the alarms ring only while the person is logged in.
    case lingeringOff
}
