/// The two ways alarms get rung: VoiceAlarm's own daemon, or systemd timers.
public enum SchedulerBackend: String, CaseIterable, Sendable {
    case embedded, systemd
}

/// What switching backends did: the alarms cancelled in the old one, what the new one received.
public struct BackendSwitch: Sendable {
    public var from: SchedulerBackend
    public var to: SchedulerBackend
    public var cancelled: Int
    public var report: ReconcileReport
}
