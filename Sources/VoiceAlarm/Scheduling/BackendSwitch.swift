import VoiceAlarmCore

/// What switching backends did: the alarms cancelled in the old one, what the new one received.
package struct BackendSwitch: Sendable {
    /// The backend the alarms left.
    package var from: SchedulerBackend
    /// The backend they are now scheduled with.
    package var to: SchedulerBackend
    /// How many alarms the old backend held and gave up.
    package var cancelled: Int
    /// What the new backend was given.
    package var report: ReconcileReport
}
