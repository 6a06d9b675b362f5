import Foundation

/// What `reconcile` did: alarms newly scheduled, re-scheduled with a new sound or schedule, and cancelled.
public struct ReconcileReport: Sendable, Equatable {
    /// Alarms the scheduler lacked.
    public var scheduled: [UUID] = []
    /// Alarms it held with a stale sound or schedule (or an edited or corrupt entry).
    public var updated: [UUID] = []
    /// Entries of ours the library does not know, and finished one-offs.
    public var cancelled: [UUID] = []

    /// A report of what was done.
    public init(scheduled: [UUID] = [], updated: [UUID] = [], cancelled: [UUID] = []) {
        self.scheduled = scheduled
        self.updated = updated
        self.cancelled = cancelled
    }

    /// Nothing needed doing.
    public var isEmpty: Bool { scheduled.isEmpty && updated.isEmpty && cancelled.isEmpty }
}
