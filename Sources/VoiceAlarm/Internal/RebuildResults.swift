import VoiceAlarmFiles

/// What the workers of a `RebuildPool` did, under a lock: each alarm's outcome at its place in the
/// order the alarms were given, and whether any changed the library.
final class RebuildResults: Sendable {
    private let state: Locked<(outcomes: [SoundBuilder.Outcome?], changed: Bool)>

    init(count: Int) {
        state = Locked((Array(repeating: nil, count: count), false))
    }

    /// Records that a worker changed the library (so its backup is owed a rewrite).
    func noteChanged() { state.withLock { $0.changed = true } }

    /// Whether any worker changed the library.
    var changed: Bool { state.withLock { $0.changed } }

    func record(_ outcome: SoundBuilder.Outcome, at index: Int) {
        state.withLock { $0.outcomes[index] = outcome }
    }

    /// Each alarm's outcome, in order; nil for an alarm no worker took.
    var outcomes: [SoundBuilder.Outcome?] { state.withLock { $0.outcomes } }
}
