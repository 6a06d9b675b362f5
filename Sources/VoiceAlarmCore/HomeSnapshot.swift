import Foundation

/// What Home Assistant is shown of a library at one moment: each alarm's switches, time, next
/// ring and state, and the machine's problems and ring. Built by the bridge from the service;
/// `HomeDiscovery` turns it into MQTT messages. Two snapshots that are equal publish nothing new.
package struct HomeSnapshot: Equatable, Sendable {
    /// An alarm's state, as Home Assistant's state sensor shows it.
    package enum State: String, CaseIterable, Sendable {
        /// On, and its next ring is its schedule's next.
        case scheduled
        /// Ringing now.
        case ringing
        /// A snoozed ring of it waits.
        case snoozed
        /// On, but the schedule's next ring is skipped (a skipped day, a pause, a holiday).
        case skipped
        /// Switched off (`alarm off`): it rings nowhere.
        case off
    }

    /// One alarm.
    package struct Entry: Equatable, Sendable {
        package var id: UUID
        /// Its label, else "Alarm 06:45": the device's name in Home Assistant.
        package var name: String
        package var time: AlarmTime
        package var isOn: Bool
        /// "Wake up to my voice".
        package var voice: Bool
        /// When it rings next, after skips and holidays; nil when off or finished.
        package var next: Date?
        package var state: State

        package init(id: UUID, name: String, time: AlarmTime, isOn: Bool, voice: Bool, next: Date?, state: State) {
            self.id = id
            self.name = name
            self.time = time
            self.isOn = isOn
            self.voice = voice
            self.next = next
            self.state = state
        }

        /// The state of an alarm from what the service says of it.
        /// - Parameters:
        ///   - patternNext: its schedule's next ring with no day skipped.
        package static func state(isOn: Bool, ringing: Bool, snoozed: Bool, next: Date?, patternNext: Date?) -> State {
            if ringing { return .ringing }
            if !isOn { return .off }
            if snoozed { return .snoozed }
            if let patternNext, next != patternNext { return .skipped }
            return .scheduled
        }
    }

    package var alarms: [Entry]
    /// The machine's problems, each in a person's words (what `doctor` says); empty when none.
    package var problems: [String]
    /// Whether any alarm of the library rings now.
    package var ringing: Bool
    /// The zone the timestamps are written in (with their UTC offset).
    package var timeZone: TimeZone

    package init(alarms: [Entry], problems: [String], ringing: Bool, timeZone: TimeZone) {
        self.alarms = alarms
        self.problems = problems
        self.ringing = ringing
        self.timeZone = timeZone
    }

    /// The earliest next ring of all alarms, and whose.
    package var next: (alarm: UUID, at: Date)? {
        alarms.compactMap { entry in entry.next.map { (entry.id, $0) } }.min { $0.1 < $1.1 }.map { (alarm: $0.0, at: $0.1) }
    }
}
