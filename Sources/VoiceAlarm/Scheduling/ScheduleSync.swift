import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmStore

/// Keeps the scheduler in step with the library: after a change, each affected alarm's sound is
/// built (`SoundBuilder`) and the alarm handed to the scheduler with what it resolves to; a
/// removed alarm is cancelled; `reconcile` repairs whatever drifted.
///
/// When several alarms need their sound built, the builds run at once on a pool of workers
/// (`RebuildPool`), each with its own connection; the alarms are then scheduled one by one, in
/// order, on the caller's thread.
///
/// A scheduler failure is a warning, never a lost alarm: the library keeps the record and the
/// next reconcile schedules it again.
package final class ScheduleSync {
    package let scheduler: any AlarmScheduler
    let store: LibraryStore
    let builder: SoundBuilder
    let now: @Sendable () -> Date
    let timeZone: TimeZone
    let warn: (ServiceWarning) -> Void
    /// The workers that build several alarms' sounds at once.
    let pool: RebuildPool
    /// Told what `refresh` did to each alarm, in order, once the alarm is scheduled: the app
    /// API's rebuild events (`VoiceAlarmLibrary.Event`). Nil tells no one.
    package var rebuilt: ((UUID, SoundBuilder.Outcome) -> Void)?

    /// - Parameters:
    ///   - jobs: how many sounds are built at once when several alarms need one (at least 1).
    ///   - opener: where each worker gets a builder of its own; nil builds one alarm at a time
    ///     on `builder`.
    package init(
        scheduler: any AlarmScheduler, store: LibraryStore, builder: SoundBuilder,
        now: @escaping @Sendable () -> Date, timeZone: TimeZone,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, opener: (any SoundBuilderOpening)? = nil,
        warn: @escaping (ServiceWarning) -> Void
    ) {
        self.scheduler = scheduler
        self.store = store
        self.builder = builder
        self.now = now
        self.timeZone = timeZone
        self.warn = warn
        pool = RebuildPool(jobs: jobs, opener: opener)
    }

    /// Rebuilds the alarms `change` affects, and only those, and re-schedules them.
    package func refresh(affectedBy change: LibraryChange) throws -> RebuildSummary {
        try refresh(affectedBy: [change])
    }

    /// Rebuilds the alarms any of `changes` affects, all in one pool (each alarm once), and
    /// re-schedules them.
    package func refresh(affectedBy changes: [LibraryChange]) throws -> RebuildSummary {
        let alarms = try store.alarms().map(\.alarm)
        let targetClips = try store.allTargetClips()
        return try refresh(changes.flatMap { $0.affectedAlarms(alarms, targetClips: targetClips) }.map(\.id))
    }

    /// Brings each alarm's voice file in line with its target and the settings, then schedules it.
    /// An unchanged ringtone (same inputs, same settings) is not rewritten. Several alarms are
    /// built at once, then scheduled in the order given; an id given twice is built once.
    /// - Parameter jobs: how many are built at once; nil for the service's number (the cores).
    package func refresh(_ ids: [UUID], jobs: Int? = nil) throws -> RebuildSummary {
        try store.deferringBackup { try refreshDeferred(ids, jobs: jobs) }
    }

    private func refreshDeferred(_ ids: [UUID], jobs: Int?) throws -> RebuildSummary {
        let settings = try builder.settings()
        var seen = Set<UUID>()
        let alarms = try ids.filter { seen.insert($0).inserted }.compactMap { try store.alarm($0) }
        let outcomes = pool.with(jobs: jobs).build(alarms, settings: settings, on: builder)
        var summary = RebuildSummary()
        // For a walk over several alarms, what the scheduler holds already, read once: an alarm it holds
        // as it should be is not written again. One alarm (an edit) is always handed over.
        let held = alarms.count < 2 ? nil : (try? scheduler.alarms()).map { Dictionary($0.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }) }
        let snoozes = (try? liveSnoozes()) ?? []
        for (stored, outcome) in zip(alarms, outcomes) {
            summary.record(stored.alarm.id, outcome)
            // A file of another format goes only once the scheduler names the new one: killed
            // anywhere before, the scheduler still names a file that exists.
            if schedule(stored.alarm.id, held: held, snoozes: snoozes), case .built(let fileName, _) = outcome {
                builder.removeFiles(of: stored.alarm.id, keeping: fileName, temporaries: false)
            }
            rebuilt?(stored.alarm.id, outcome)
        }
        return summary
    }

    /// Hands an alarm to the scheduler with the sound it resolves to (a finished one-off is
    /// cancelled instead).
    /// - Parameters:
    ///   - held: what the scheduler held before, when read: an alarm held exactly as it should be
    ///     (and current) is left alone, so walking every alarm writes nothing for those in step.
    ///   - snoozes: the live snoozes, when read.
    /// - Returns: whether the scheduler now holds what the library says (false after a warning).
    @discardableResult
    func schedule(_ id: UUID, held: [UUID: ScheduledAlarm]? = nil, snoozes: [PendingSnooze]? = nil) -> Bool {
        do {
            guard let stored = try store.alarm(id), stored.alarm.isScheduled(at: now(), in: timeZone) else {
                if held == nil || held?[id] != nil { try scheduler.cancel(id: id) }
                return true
            }
            let configuration = configuration(of: stored)
            if let current = held?[id], current.configuration == configuration, scheduler.isCurrent(current) {
                // Held as it should be.
            } else {
                try scheduler.schedule(id: id, configuration: configuration)
            }
            if let snooze = try (snoozes ?? liveSnoozes()).first(where: { $0.alarm == id }) { try schedule(snooze) }
            return true
        } catch {
            warn(.notScheduled(alarm: id, error: WarningCause(error)))
            return false
        }
    }

    /// Removes the voice files of `alarms` that the library no longer names (an older format left
    /// by a rebuild that was stopped before its scheduler step). Call it only once the scheduler
    /// holds what the library says.
    ///
    /// Only files older than `FileSystem.abandonedTemporaryAge` go: a file just written is one
    /// another command may be about to record (it renames first, records next).
    func retireStaleFiles(_ alarms: [StoredAlarm]) {
        let now = now()
        // The folder is listed once: one pass over its files, not one per alarm.
        let present = builder.sounds.fileNames()
        for stored in alarms {
            let id = stored.alarm.idString
            let keeping = stored.alarm.voice ? stored.soundFile : nil
            for name in present where name != keeping && name.hasPrefix(id + ".") {
                guard let stamp = try? FileStamp(path: builder.sounds.path(of: name)),
                    now.timeIntervalSince1970 - stamp.modifiedSeconds > FileSystem.abandonedTemporaryAge
                else { continue }
                do { try builder.sounds.remove(name) } catch {
                    warn(.soundFileNotRemoved(alarm: stored.alarm.id, path: error.path, error: WarningCause(error)))
                }
            }
        }
    }

    /// Cancels a removed alarm (and a snoozed ring of it) and deletes its files.
    func retire(_ id: UUID) {
        builder.removeFiles(of: id)
        do {
            try scheduler.cancel(id: id)
            try scheduler.cancel(id: Snooze.scheduleID(for: id))
        } catch {
            warn(.notCancelled(alarm: id, error: WarningCause(error)))
        }
    }

    /// Snoozes still to ring (or late by less than the missed-alarm window); older ones have
    /// rung or been missed, and are no longer scheduled.
    package func liveSnoozes() throws -> [PendingSnooze] {
        let now = now()
        return try store.snoozes().filter { now.timeIntervalSince($0.ringAt) < MissedAlarmPolicy.window }
    }

    /// Hands a snoozed ring to the scheduler under its own id, with its alarm's sound.
    /// - Throws: the scheduler's error: a snooze that cannot be scheduled must not stop the ring.
    func schedule(_ snooze: PendingSnooze) throws {
        guard let stored = try store.alarm(snooze.alarm) else { return }
        try scheduler.schedule(id: snooze.scheduleID, configuration: snoozeConfiguration(of: stored, at: snooze.ringAt))
    }

    /// Cancels a snoozed ring in the scheduler.
    func cancelSnooze(of alarm: UUID) throws { try scheduler.cancel(id: Snooze.scheduleID(for: alarm)) }

    /// Takes the alarm and any snooze of it out of the scheduler, and forgets the snooze (an
    /// alarm turned off). Throws what the scheduler says: the alarm may still be held.
    func unschedule(_ id: UUID) throws {
        try scheduler.cancel(id: id)
        try cancelSnooze(of: id)
        try store.transaction { try store.deleteSnoozes(of: [id]) }
    }

    /// A snoozed ring as the scheduler holds it: once, at `ringAt`, with the alarm's sound.
    func snoozeConfiguration(of stored: StoredAlarm, at ringAt: Date) -> AlarmConfiguration {
        var configuration = configuration(of: stored)
        configuration.schedule = .fixed(ringAt)
        return configuration
    }

    /// What the scheduler should hold for an alarm: its schedule and the sound it resolves to.
    package func configuration(of stored: StoredAlarm) -> AlarmConfiguration {
        let sound: AlertSound =
            switch builder.resolve(stored) {
            case .voice(let fileName): .named(fileName)
            case .defaultTone: .default
            }
        // Only the skips still ahead: one that passed changes what the scheduler should hold, so
        // the next reconcile takes it out (and a systemd timer goes back to its plain pattern).
        // Holidays within a year, when it skips them (a table that cannot be read skips none:
        // better a ring on a holiday than a skip nobody asked for).
        let today = LocalDate(now(), in: timeZone)
        let horizon = LocalDate(now().addingTimeInterval(Double(SkipRules.horizonDays) * 86_400), in: timeZone)
        let holidays: Set<LocalDate> = stored.alarm.skipsHolidays ? ((try? store.holidayDates()) ?? []).filter { $0 <= horizon } : []
        let skips = stored.alarm.skipping(holidays: holidays).ahead(of: today)
        return AlarmConfiguration(schedule: stored.alarm.schedule, sound: sound, label: stored.alarm.label, skips: skips)
    }

    /// What the scheduler holds now.
    package func scheduled() throws -> [ScheduledAlarm] { try scheduler.alarms() }

    /// What stops the scheduler from ringing the alarms.
    package func problems() -> [SchedulerProblem] { scheduler.problems() }

    /// Makes the scheduler hold exactly the library's live alarms: schedules what it lacks,
    /// re-schedules what it holds with a stale sound or schedule, cancels what the library does
    /// not know (and finished one-offs). Voice files that should exist and do not, and rebuilds
    /// the machine stopped earlier, are built first. Running it twice in a row does nothing the second time.
    package func reconcile() throws -> ReconcileReport { try reconcile(with: scheduler) }

    /// `reconcile()` through `scheduler` — the same backend with something its units carry
    /// changed (the remembered device), so every unit is re-written with it.
    func reconcile(with scheduler: any AlarmScheduler) throws -> ReconcileReport {
        try store.deferringBackup { try reconcileDeferred(with: scheduler) }
    }

    private func reconcileDeferred(with scheduler: any AlarmScheduler) throws -> ReconcileReport {
        let settings = try builder.settings()
        let due = builder.owingRebuild(try store.alarms(), settings: settings)
        let outcomes = pool.build(due, settings: settings, on: builder)
        let (plan, desired) = try plan(with: scheduler)
        for id in plan.schedule + plan.update { try scheduler.schedule(id: id, configuration: desired[id]!) }
        for id in plan.cancel { try scheduler.cancel(id: id) }
        // The scheduler names every file built just now: the ones they replace go now, other leftovers once they are old.
        for (stored, outcome) in zip(due, outcomes) {
            if case .built(let fileName, _) = outcome { builder.removeFiles(of: stored.alarm.id, keeping: fileName, temporaries: false) }
        }
        retireStaleFiles(try store.alarms())
        forgetPassedSkips(loggingThem: !scheduler.ringsThroughDaemon)
        return ReconcileReport(scheduled: plan.schedule, updated: plan.update, cancelled: plan.cancel)
    }

    /// Drops the skips that have passed from the library. With systemd timers nothing ran on a
    /// skipped day to say so (the daemon writes its line as the time passes): each passed skipped
    /// ring is written to the event log here, with the time it was due, and a pause that ended.
    /// Best effort: a library or log that cannot be written keeps them; passed, they mean nothing.
    func forgetPassedSkips(loggingThem: Bool) {
        let instant = now()
        let today = LocalDate(instant, in: timeZone)
        guard let alarms = try? store.alarms() else { return }
        for stored in alarms where stored.alarm.skips != stored.alarm.skips.ahead(of: today) {
            var alarm = stored.alarm
            let passedDays: [LocalDate] = alarm.skips.dates.filter { (day: LocalDate) in day < today }.sorted()
            let pauseEnded: LocalDate? = alarm.skips.through.flatMap { (day: LocalDate) in day < today ? day : nil }
            alarm.skips = alarm.skips.ahead(of: today)
            guard (try? store.transaction({ try store.updateAlarm(alarm) })) != nil, loggingThem else { continue }
            let log = EventLog(dataDirectory: store.dataDirectory)
            for day in passedDays {
                guard let fire = Self.ring(of: alarm.schedule, on: day, in: timeZone) else { continue }
                let due: String = LocalTimeText.iso(fire, timeZone)
                try? log.record("skipped alarm \(alarm.idString): due \(due), a day skipped; not ringing", at: instant)
                var event = AlarmEvent(.skipped, alarm: alarm.id, at: instant)
                event.due = fire
                try? AlarmEventJournal(dataDirectory: store.dataDirectory).record(event)
            }
            if let pauseEnded { try? log.record("alarm \(alarm.idString): its pause through \(pauseEnded) has ended; it rings again", at: instant) }
        }
    }

    /// The ring `schedule` had on `day`, if any (none when its days were edited since).
    private static func ring(of schedule: AlarmSchedule, on day: LocalDate, in timeZone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: day.year, month: day.month, day: day.day)
        guard let midnight: Date = calendar.date(from: components) else { return nil }
        guard let fire: Date = schedule.nextFire(after: midnight.addingTimeInterval(-1), in: timeZone) else { return nil }
        return LocalDate(fire, in: timeZone) == day ? fire : nil
    }

    /// What `scheduler` should hold (every live alarm and snooze with the sound it resolves to
    /// now), and the diff to what it holds.
    private func plan(with scheduler: any AlarmScheduler) throws -> (ReconcilePlan, desired: [UUID: AlarmConfiguration]) {
        var desired: [UUID: AlarmConfiguration] = [:]
        let alarms = try store.alarms()
        for stored in alarms where stored.alarm.isScheduled(at: now(), in: timeZone) {
            desired[stored.alarm.id] = configuration(of: stored)
        }
        for snooze in try liveSnoozes() {
            guard let stored = alarms.first(where: { $0.alarm.id == snooze.alarm }), stored.alarm.isOn else { continue }
            desired[snooze.scheduleID] = snoozeConfiguration(of: stored, at: snooze.ringAt)
        }
        // What the scheduler holds for an alarm whose row cannot be read stays: better its last
        // known ring than none (doctor says to run 'voicealarm repair').
        let unreadable = Set(try store.unreadableAlarmIDs())
        let held = try scheduler.alarms().filter { !unreadable.contains($0.id) }
        let actual = Dictionary(held.map { ($0.id, $0.configuration) }, uniquingKeysWith: { first, _ in first })
        let stale = Set(held.filter { !scheduler.isCurrent($0) }.map(\.id))
        return (ReconcilePlan(desired: desired, actual: actual, stale: stale), desired)
    }

    /// How the scheduler differs from the library, changing neither: alarms it lacks or holds
    /// stale, ones it holds that the library does not know, and voice files it names that are
    /// not there (a ring it starts would fall back to the default tone). Empty when in step.
    package func drift() throws -> [ScheduleDrift] {
        let (plan, _) = try plan(with: scheduler)
        var drift = plan.schedule.map(ScheduleDrift.notHeld) + plan.update.map(ScheduleDrift.stale) + plan.cancel.map(ScheduleDrift.unknown)
        for held in try scheduler.alarms() {
            guard case .named(let file) = held.configuration.sound,
                FileSystem.kind(of: builder.sounds.path(of: file), followingLinks: true) != .regular
            else { continue }
            drift.append(.missingSound(held.id, file: file))
        }
        return drift
    }
}
