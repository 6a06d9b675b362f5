import VoiceAlarmCore

/// What switching backends did: the alarms cancelled in the old one, what the new one received.
public struct BackendSwitch: Sendable {
    /// The backend the alarms left.
    public var from: SchedulerBackend
    /// The backend they are now scheduled with.
    public var to: SchedulerBackend
    /// How many alarms the old backend held and gave up.
    public var cancelled: Int
    /// What the new backend was given.
    public var report: ReconcileReport
}
