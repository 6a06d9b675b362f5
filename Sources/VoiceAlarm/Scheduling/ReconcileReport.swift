import Foundation

/// What `reconcile` did: alarms newly scheduled, re-scheduled with a new sound or schedule, and cancelled.
package struct ReconcileReport: Sendable, Equatable {
    /// Alarms the scheduler lacked.
    package var scheduled: [UUID] = []
    /// Alarms it held with a stale sound or schedule (or an edited or corrupt entry).
    package var updated: [UUID] = []
    /// Entries of ours the library does not know, and finished one-offs.
    package var cancelled: [UUID] = []

    /// A report of what was done.
    package init(scheduled: [UUID] = [], updated: [UUID] = [], cancelled: [UUID] = []) {
        self.scheduled = scheduled
        self.updated = updated
        self.cancelled = cancelled
    }

    /// Nothing needed doing.
    package var isEmpty: Bool { scheduled.isEmpty && updated.isEmpty && cancelled.isEmpty }
}
