/// Why alarms cannot wake this machine from suspend: they ring when it is awake, late or not at
/// all when it sleeps through their minute. A value the surfaces word (the terminal with the
/// command that fixes it, the page with whom to ask).
package enum WakeProblem: Sendable, Equatable {
    /// This process may not use `CLOCK_REALTIME_ALARM`: the binary needs `CAP_WAKE_ALARM`.
    case needsCapability(executable: String)
    /// `CLOCK_REALTIME_ALARM` does not exist here (the kernel's reason).
    case clockUnavailable(String)
    /// No timer descriptor could be made at all (the error): the daemon sleeps in slices.
    case noTimer(String)
    /// systemd user timers cannot wake a suspended machine (`WakeSystem=` needs privileges a
    /// user manager lacks); the embedded daemon can.
    case systemdTimers
}
