import Foundation

/// What `reconcile` did: alarms newly scheduled, re-scheduled with a new sound or schedule, and cancelled.
public struct ReconcileReport: Sendable, Equatable {
    public var scheduled: [UUID] = []
    public var updated: [UUID] = []
    public var cancelled: [UUID] = []

    public init(scheduled: [UUID] = [], updated: [UUID] = [], cancelled: [UUID] = []) {
        self.scheduled = scheduled
        self.updated = updated
        self.cancelled = cancelled
    }

    /// Nothing needed doing.
    public var isEmpty: Bool { scheduled.isEmpty && updated.isEmpty && cancelled.isEmpty }
}
