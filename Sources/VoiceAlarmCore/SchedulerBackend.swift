/// The two ways alarms get rung: VoiceAlarm's own daemon, or systemd timers.
package enum SchedulerBackend: String, CaseIterable, Sendable {
    case embedded, systemd
}
