/// The events the bridge has not yet handed to the broker: kept while it is connected to
/// nothing, up to `capacity`; past that the oldest is dropped and counted, so a long outage
/// costs the oldest events, never the newest (what happened this morning outlives last week).
package struct HomeEventQueue: Sendable {
    /// The most events kept while the broker is away.
    package static let defaultCapacity = 500

    package let capacity: Int
    package private(set) var waiting: [AlarmEvent] = []
    /// How many were dropped since the bridge started.
    package private(set) var dropped = 0

    package init(capacity: Int = defaultCapacity) {
        precondition(capacity > 0, "a queue holds at least one event")
        self.capacity = capacity
    }

    /// Adds `event` at the end, dropping the oldest when full.
    /// - Returns: whether an event was dropped to make room.
    @discardableResult
    package mutating func append(_ event: AlarmEvent) -> Bool {
        waiting.append(event)
        guard waiting.count > capacity else { return false }
        waiting.removeFirst(waiting.count - capacity)
        dropped += 1
        return true
    }

    /// Takes the oldest event, once it was handed over (call `removeFirst` after publishing it).
    package var first: AlarmEvent? { waiting.first }

    package mutating func removeFirst() {
        guard !waiting.isEmpty else { return }
        waiting.removeFirst()
    }
}
