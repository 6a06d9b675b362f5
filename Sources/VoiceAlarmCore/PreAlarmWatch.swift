import Foundation

/// When to say "it rings in N minutes" (the `pre_alarm` event): once per ring, as soon as the
/// ring is N minutes or less away. A ring already under way or past says nothing; a ring that
/// moves (an edit, a skip) is a new ring and is announced again when its time comes near.
package struct PreAlarmWatch: Sendable {
    /// The longest lead, in minutes.
    package static let minutes: ClosedRange<Int> = 1...180

    package let lead: TimeInterval
    /// The ring each alarm was last announced for.
    private var announced: [UUID: Date] = [:]

    package init(minutes: Int) {
        precondition(Self.minutes.contains(minutes), "the lead is checked where it is given")
        lead = TimeInterval(minutes * 60)
    }

    /// The pre-alarm events due at `now` for alarms ringing next at `rings`.
    package mutating func due(at now: Date, rings: [(alarm: UUID, at: Date)]) -> [AlarmEvent] {
        var events: [AlarmEvent] = []
        for ring in rings where ring.at > now && ring.at.timeIntervalSince(now) <= lead && announced[ring.alarm] != ring.at {
            announced[ring.alarm] = ring.at
            var event = AlarmEvent(.preAlarm, alarm: ring.alarm, at: now)
            event.due = ring.at
            events.append(event)
        }
        return events
    }
}
