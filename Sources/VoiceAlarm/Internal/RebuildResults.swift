
/// What the workers of a `RebuildPool` did, under a lock: which alarm is taken next, and each
/// alarm's outcome at its place in the order the alarms were given.
final class RebuildResults: Sendable {
    private let state: Locked<(next: Int, outcomes: [SoundBuilder.Outcome?], changed: Bool)>

    init(count: Int) {
        state = Locked((0, Array(repeating: nil, count: count), false))
    }

    /// Records that a worker changed the library (so its backup is owed a rewrite).
    func noteChanged() { state.withLock { $0.changed = true } }

    /// Whether any worker changed the library.
    var changed: Bool { state.withLock { $0.changed } }

    /// The place of the next alarm no worker has taken, or nil when every one is taken.
    func claim() -> Int? {
        state.withLock { state in
            guard state.next < state.outcomes.count else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    func record(_ outcome: SoundBuilder.Outcome, at index: Int) {
        state.withLock { $0.outcomes[index] = outcome }
    }

    /// Each alarm's outcome, in order; nil for an alarm no worker took.
    var outcomes: [SoundBuilder.Outcome?] { state.withLock { $0.outcomes } }
}
