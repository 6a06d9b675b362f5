import Foundation
import VoiceAlarm
import VoiceAlarmFiles

/// What `doctor` found, kept for a few seconds: the page asks for the status every few seconds
/// from every open tab, and a full examination (the scheduler, the services' states through
/// `systemctl --user`, every voice file) is the costly part of the answer. What rings now is
/// read afresh on every request; a change made through the page forgets what was kept.
final class HealthCache: Sendable {
    /// The examination, and whether the page may start the daemon's service.
    struct Entry: Sendable {
        var report: Doctor.Report
        var canStartService: Bool
    }

    /// How long an examination answers for.
    let lifetime: TimeInterval
    private let kept = Locked<(entry: Entry, at: Date)?>(nil)

    init(lifetime: TimeInterval = 15) { self.lifetime = lifetime }

    /// The kept examination when it is younger than `lifetime` at `now`, else a new one. The
    /// examination runs outside the lock: two requests at once may both examine, none waits.
    func entry(at now: Date, examine: () throws -> Entry) rethrows -> Entry {
        if let kept = kept.withLock({ $0 }), now.timeIntervalSince(kept.at) < lifetime, now >= kept.at { return kept.entry }
        let entry = try examine()
        self.kept.withLock { $0 = (entry, now) }
        return entry
    }

    /// Forgets the examination: the next request examines again.
    func forget() { kept.withLock { $0 = nil } }
}
