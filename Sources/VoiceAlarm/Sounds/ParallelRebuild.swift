import Foundation
import VoiceAlarmCore

/// `voicealarm build`: the ringtones of the library's alarms (all, or some targets'), rebuilt
/// by `jobs` workers (the rebuild pool every change uses), each with its own connection to the
/// library, then scheduled. Unchanged ringtones are not rewritten; an alarm whose ringtone cannot
/// be made is a failure in the outcome (it rings with the default tone), never a stop for the others.
///
/// ```swift
/// let outcome = try ParallelRebuild(service: service, jobs: 2).run(targets: [.playlist("morning")])
/// ```
package struct ParallelRebuild {
    let service: AlarmService
    let jobs: Int

    /// - Parameters:
    ///   - service: the library (each worker opens its own connections to it).
    ///   - jobs: how many ringtones are built at once (at least 1).
    package init(service: AlarmService, jobs: Int) {
        precondition(jobs > 0, "at least one job")
        self.service = service
        self.jobs = jobs
    }

    /// Rebuilds the alarms of `targets` (every alarm when empty).
    /// - Throws: `LibraryError.unknownPlaylist` for a target that does not exist (nothing is built then).
    package func run(targets: [Target]) throws -> BatchBuilder.Outcome {
        let start = service.now()
        let resolved = try targets.map { try service.playlists.existing($0) }
        let alarms = try service.alarms.statuses().map(\.alarm).filter { resolved.isEmpty || resolved.contains($0.target) }
        let summary = try service.sync.refresh(alarms.map(\.id), jobs: jobs)  // workers on their own connections
        var outcome = BatchBuilder.Outcome()
        outcome.built = summary.rebuilt.count
        outcome.skipped = summary.unchanged.count
        outcome.shortfalls = summary.shortfalls.map { .init(id: $0.0.uuidString.lowercased(), shortfall: $0.1) }
        for (id, reason) in summary.onDefault {
            if reason.isFailure {
                outcome.failed.append(.init(id: id.uuidString.lowercased(), error: reason.description))
            } else {
                outcome.skipped += 1
            }
        }
        for (id, reason) in summary.deferred {
            outcome.failed.append(.init(id: id.uuidString.lowercased(), error: "\(reason) (it keeps its current voice file; the rebuild is owed)"))
        }
        outcome.seconds = (service.now().timeIntervalSince(start) * 1000).rounded() / 1000
        return outcome
    }
}
