import Foundation
import Synchronization
import VoiceAlarmFiles

/// What the workers of a `ParallelRebuild` did, collected under a lock.
final class RebuildResults: Sendable {
    private let state = Mutex<(summary: RebuildSummary, failures: [BatchBuilder.Outcome.Failure])>((RebuildSummary(), []))

    func add(_ summary: RebuildSummary) {
        state.withLock { $0.summary.merge(summary) }
    }

    func fail(_ ids: [UUID], _ error: any Error) {
        state.withLock { $0.failures += ids.map { .init(id: $0.uuidString.lowercased(), error: SystemError.text(of: error)) } }
    }

    var summary: RebuildSummary { state.withLock { $0.summary } }
    var errors: [BatchBuilder.Outcome.Failure] { state.withLock { $0.failures } }
}
