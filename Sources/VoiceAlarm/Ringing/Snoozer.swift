import Foundation
import VoiceAlarmCore
import VoiceAlarmStore

/// `voicealarm snooze`: puts a ringing alarm off for its snooze (opt-in per alarm), at most
/// `Snooze.maximumRepeats` times in a row, through the same scheduler as every alarm.
///
/// The order keeps the person safe: the snoozed ring is recorded and scheduled first, and only
/// then is the ring stopped — a snooze that cannot be scheduled leaves the alarm ringing.
package struct Snoozer {
    /// A ring put off.
    package struct Snoozed: Sendable, Equatable {
        package var alarm: UUID
        package var ringAt: Date
        /// Which snooze in a row this is (1 for the first).
        package var count: Int
        /// How many more times it may be snoozed.
        package var left: Int { Snooze.maximumRepeats - count }
    }

    /// Why nothing was snoozed (the ring, if any, goes on).
    package enum Refusal: ClassifiedError, Equatable, CustomStringConvertible, Sendable {
        case nothingRinging
        case noSnooze(UUID)
        case limitReached(UUID)
        /// What rings is a test ring asked from the page: stopped, never snoozed.
        case testRing(UUID)
        /// `snooze --cancel` with no snooze waiting.
        case nothingWaiting

        /// Nothing to snooze is a rule, not a failure of the machine (409).
        package var failureKind: FailureKind { .conflict }
        package var failureInput: String? { nil }

        package var description: String {
            switch self {
            case .nothingRinging: "nothing of ours is ringing"
            case .noSnooze(let id):
                "alarm \(id.uuidString.lowercased()) has no snooze: it rings until stopped"
            case .limitReached(let id):
                "alarm \(id.uuidString.lowercased()) has been snoozed \(Snooze.maximumRepeats) times in a row, the most: it rings until stopped"
            case .testRing(let id):
                "alarm \(id.uuidString.lowercased()) rings as a test, which is stopped, not snoozed"
            case .nothingWaiting: "no snooze is waiting"
            }
        }
    }

    let store: LibraryStore
    let sync: ScheduleSync
    let registry: RingingRegistry
    let now: @Sendable () -> Date
    let timeZone: TimeZone

    init(store: LibraryStore, sync: ScheduleSync, registry: RingingRegistry, now: @escaping @Sendable () -> Date, timeZone: TimeZone) {
        self.store = store
        self.sync = sync
        self.registry = registry
        self.now = now
        self.timeZone = timeZone
    }

    /// Snoozes every ringing alarm of this library. Nothing changes unless every one may be
    /// snoozed.
    /// - Throws: `Refusal`; the scheduler's error (the ring then goes on, and the snooze is forgotten).
    package func snooze() throws -> [Snoozed] {
        let pending = try store.snoozes()
        var rings: [(ringID: UUID, stored: StoredAlarm, count: Int)] = []
        // A test ring (the page's "Ring it here now") is no alarm going off: never snoozed.
        let dataDirectory = (registry.directory as NSString).deletingLastPathComponent
        let test: UUID? = if case .ringing(let request) = TestRingDesk(dataDirectory: dataDirectory).phase(now: now()) { request.alarm } else { nil }
        for ring in registry.live() where ring.id != test {
            let isSnoozedRing = Snooze.isScheduleID(ring.id)
            let alarm = isSnoozedRing ? Snooze.scheduleID(for: ring.id) : ring.id
            guard let stored = try store.alarm(alarm), !rings.contains(where: { $0.stored.alarm.id == alarm }) else { continue }
            guard stored.alarm.snoozeMinutes != nil else { throw Refusal.noSnooze(alarm) }
            // A snoozed ring continues its row's count; the alarm's own ring starts a new row.
            let previous = isSnoozedRing ? (pending.first { $0.alarm == alarm }?.count ?? 0) : 0
            guard previous < Snooze.maximumRepeats else { throw Refusal.limitReached(alarm) }
            rings.append((ring.id, stored, previous + 1))
        }
        guard !rings.isEmpty else { throw test.map(Refusal.testRing) ?? Refusal.nothingRinging }

        let instant = now()
        var taken = try minutesHeld(after: instant, except: Set(rings.map(\.stored.alarm.id)))
        var snoozes: [PendingSnooze] = []
        for ring in rings {
            let ringAt = Snooze.ringTime(after: instant, minutes: ring.stored.alarm.snoozeMinutes!, taken: taken)
            taken.append(ringAt)
            snoozes.append(PendingSnooze(alarm: ring.stored.alarm.id, ringAt: ringAt, count: ring.count))
        }
        try store.transaction { for snooze in snoozes { try store.setSnooze(snooze) } }
        do {
            for snooze in snoozes { try sync.schedule(snooze) }
        } catch {
            // Back to how it was (the earlier rows keep their counts); the rings go on.
            try? store.transaction {
                try store.deleteSnoozes(of: snoozes.map(\.alarm))
                for earlier in pending where snoozes.contains(where: { $0.alarm == earlier.alarm }) { try store.setSnooze(earlier) }
            }
            for snooze in snoozes { try? sync.cancelSnooze(of: snooze.alarm) }
            throw error
        }
        let journal = AlarmEventJournal(dataDirectory: dataDirectory)
        for snooze in snoozes {
            var event = AlarmEvent(.snoozed, alarm: snooze.alarm, at: instant)
            event.ringAt = snooze.ringAt
            try? journal.record(event)  // for whoever follows the alarms; never in the ring's way
        }
        for ring in rings { registry.stop(ring.ringID) }
        return snoozes.map { Snoozed(alarm: $0.alarm, ringAt: $0.ringAt, count: $0.count) }
    }

    /// "I'm up": every snooze waiting is forgotten and taken out of the scheduler, outside a ring
    /// (`snooze --cancel`); the alarms ring at their own next times.
    /// - Returns: the alarms whose snooze was cancelled.
    /// - Throws: `Refusal.nothingWaiting`; the scheduler's error.
    package func cancelWaiting() throws -> [UUID] {
        let waiting = try !sync.liveSnoozes().isEmpty || !store.snoozes().isEmpty
        guard waiting else { throw Refusal.nothingWaiting }
        return try cancel(after: [])
    }

    /// Forgets pending snoozes and takes them out of the scheduler (`voicealarm stop`): those of
    /// the rings that were stopped (alarm or snoozed-ring ids), or, when none was ringing, every
    /// one — another alarm's snooze is never lost to stopping a different ring.
    /// - Returns: the alarms whose snooze was cancelled.
    package func cancel(after stopped: [UUID]) throws -> [UUID] {
        let alarms = Set(stopped.map { Snooze.isScheduleID($0) ? Snooze.scheduleID(for: $0) : $0 })
        let pending = try sync.liveSnoozes().map(\.alarm).filter { stopped.isEmpty || alarms.contains($0) }
        try store.deleteSnoozes(of: stopped.isEmpty ? nil : Array(alarms))
        for alarm in pending { try sync.cancelSnooze(of: alarm) }
        return pending
    }

    /// The instants other rings hold within the longest snooze (and a little after): the other
    /// alarms' next rings and the other snoozes waiting.
    private func minutesHeld(after instant: Date, except alarms: Set<UUID>) throws -> [Date] {
        let horizon = instant.addingTimeInterval(Double(Snooze.minutes.upperBound + 60) * 60)
        var held = try store.alarms().filter { !alarms.contains($0.alarm.id) }
            .compactMap { $0.alarm.nextRing(after: instant, in: timeZone) }.filter { $0 <= horizon }
        held += try sync.liveSnoozes().filter { !alarms.contains($0.alarm) }.map(\.ringAt)
        return held
    }
}
