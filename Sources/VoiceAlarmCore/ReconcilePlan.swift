import Foundation

/// What to do so that a scheduler holds exactly the library's alarms: the diff between what
/// should be scheduled and what is, computed without touching either.
package struct ReconcilePlan: Equatable, Sendable {
    /// Stored alarms the scheduler lacks.
    package var schedule: [UUID] = []
    /// Alarms the scheduler holds with a stale sound or schedule (or that it reports stale).
    package var update: [UUID] = []
    /// Alarms in our namespace the library does not know (or that have finished).
    package var cancel: [UUID] = []

    package init(desired: [UUID: AlarmConfiguration], actual: [UUID: AlarmConfiguration], stale: Set<UUID> = []) {
        for (id, configuration) in desired {
            if let held = actual[id] {
                if held != configuration || stale.contains(id) { update.append(id) }
            } else {
                schedule.append(id)
            }
        }
        cancel = actual.keys.filter { desired[$0] == nil }
        schedule.sort { $0.uuidString < $1.uuidString }
        update.sort { $0.uuidString < $1.uuidString }
        cancel.sort { $0.uuidString < $1.uuidString }
    }

    package var isEmpty: Bool { schedule.isEmpty && update.isEmpty && cancel.isEmpty }
}
