import Foundation
import VoiceAlarmCore
import VoiceAlarmStore

/// The alarms: adding (rules checked in the same transaction as the insert), removing, the
/// "wake up to my voice" switch, and what each will really play and when.
package final class AlarmBook {
    let store: LibraryStore
    let sync: ScheduleSync
    let playlists: PlaylistEditor
    let now: @Sendable () -> Date
    let timeZone: TimeZone
    let ids: IDResolver

    init(store: LibraryStore, sync: ScheduleSync, playlists: PlaylistEditor, now: @escaping @Sendable () -> Date, timeZone: TimeZone) {
        self.store = store
        self.sync = sync
        self.playlists = playlists
        self.now = now
        self.timeZone = timeZone
        ids = IDResolver(store: store)
    }

    /// What `add` did.
    package struct Added: Sendable {
        package var status: AlarmStatus
        /// True when this is the target's first alarm: worth suggesting a backup when it has no
        /// snooze (snooze is opt-in: `snoozeMinutes`).
        package var isFirstForTarget: Bool
    }

    /// Adds an alarm after checking the rules (a label `AlarmLabel` accepts; five per target, no
    /// overlap, not in the past) in the same transaction as the insert; then builds its ringtone
    /// and schedules it. A sound problem never stops an alarm from being scheduled: it falls back
    /// to the default tone.
    /// - Throws: `LibraryError.invalidLabel` for a label with control characters, before anything
    ///   is read or changed; other `LibraryError`s for an unknown target or a broken rule.
    package func add(
        on target: Target, at time: AlarmTime, days: Weekdays = [], date: LocalDate? = nil,
        label: String? = nil, voice: Bool = true, snoozeMinutes: Int? = nil, skipsHolidays: Bool = false
    ) throws -> Added {
        if let label {
            do { try AlarmLabel.check(label) } catch { throw LibraryError.invalidLabel(error) }
        }
        if let snoozeMinutes, !Snooze.minutes.contains(snoozeMinutes) { throw LibraryError.invalidSnooze(snoozeMinutes) }
        let target = try playlists.existing(target)
        let instant = now()
        let day = date ?? (days.isEmpty ? AlarmRules.nextOccurrenceDate(of: time, after: instant, in: timeZone) : nil)
        let alarm = Alarm(
            target: target, time: time, days: days, date: day, label: label, voice: voice, snoozeMinutes: snoozeMinutes,
            skipsHolidays: skipsHolidays)
        let first: Bool = try store.transaction {
            let existing = try store.alarms().map(\.alarm)
            if let violation = AlarmRules.violation(adding: alarm, to: existing, now: instant, timeZone: timeZone) {
                throw LibraryError.rule(alarm, violation)
            }
            try store.insertAlarm(alarm)
            return !existing.contains { $0.target == target && !$0.isFinished(at: instant, in: timeZone) }
        }
        _ = try sync.refresh([alarm.id])
        return Added(status: try status(of: alarm.id), isFirstForTarget: first)
    }

    /// Changes an alarm under its own id (`alarm edit`): the edit applied, checked by the rules of
    /// `add` against the other alarms in the same transaction as the update, then its ringtone
    /// rebuilt only when what it plays changed, and the scheduler told to schedule it — one
    /// replacement under the same id, so it holds the old alarm or the new, never none or both.
    /// - Throws: `LibraryError.invalidLabel`, `.invalidSnooze` before anything is read;
    ///   `.unknownAlarm`, an unknown target, or `.rule` for a broken rule, with nothing changed.
    package func edit(_ reference: String, _ edit: AlarmEdit) throws -> AlarmStatus {
        if case .some(.some(let label)) = edit.label {
            do { try AlarmLabel.check(label) } catch { throw LibraryError.invalidLabel(error) }
        }
        if case .some(.some(let minutes)) = edit.snoozeMinutes, !Snooze.minutes.contains(minutes) { throw LibraryError.invalidSnooze(minutes) }
        let id = try self.id(reference)
        var edit = edit
        edit.target = try edit.target.map(playlists.existing)
        let instant = now()
        try store.transaction {
            guard let stored = try store.alarm(id) else { throw LibraryError.unknownAlarm(id.uuidString.lowercased()) }
            let changed = edit.applied(to: stored.alarm, now: instant, in: timeZone)
            guard changed != stored.alarm else { return }
            let others = try store.alarms().map(\.alarm).filter { $0.id != id }
            if let violation = AlarmRules.violation(adding: changed, to: others, now: instant, timeZone: timeZone) {
                throw LibraryError.rule(changed, violation)
            }
            try store.updateAlarm(changed)
        }
        _ = try sync.refresh([id])
        return try status(of: id)
    }

    /// Skips rings of the alarm (`alarm skip`): the next one, days, or every one through a day;
    /// then the scheduler is told, so it rings at the true next ring.
    /// - Throws: `LibraryError.unknownAlarm`; `SkipRules.Refusal` with nothing changed.
    package func skip(_ reference: String, _ skip: SkipRules.Skip) throws -> AlarmStatus {
        let holidays = try store.holidayDates()
        return try changeSkips(reference) { alarm, instant in try SkipRules.skip(skip, of: alarm, now: instant, in: timeZone, holidays: holidays) }
    }

    /// Takes skips back (`alarm unskip`): the earliest, a day, or all of them.
    /// - Throws: `LibraryError.unknownAlarm`; `SkipRules.Refusal` with nothing changed.
    package func unskip(_ reference: String, _ unskip: SkipRules.Unskip) throws -> AlarmStatus {
        try changeSkips(reference) { alarm, instant in try SkipRules.unskip(unskip, of: alarm, now: instant, in: timeZone) }
    }

    /// The alarm's skips replaced by what `change` makes of them, in one transaction, then scheduled.
    private func changeSkips(_ reference: String, _ change: (Alarm, Date) throws -> Skips) throws -> AlarmStatus {
        let id = try self.id(reference)
        let instant = now()
        try store.transaction {
            guard let stored = try store.alarm(id) else { throw LibraryError.unknownAlarm(id.uuidString.lowercased()) }
            var alarm = stored.alarm
            alarm.skips = try change(alarm, instant)
            try store.updateAlarm(alarm)
        }
        _ = try sync.refresh([id])
        return try status(of: id)
    }

    /// Removes alarms, their voice files and their schedules. Every reference is resolved before
    /// anything changes, and the alarms leave in one transaction: one unknown id removes nothing.
    package func remove(_ references: [String]) throws -> [UUID] {
        var ids: [UUID] = []
        try store.transaction {
            for id in try references.map(self.id) where !ids.contains(id) { ids.append(id) }
            for id in ids { try store.deleteAlarm(id) }
        }
        for id in ids { sync.retire(id) }
        return ids
    }

    /// "Wake up to my voice": off → default tone and the voice file deleted; on → built and used again.
    package func setVoice(_ on: Bool, for reference: String) throws -> AlarmStatus {
        let id = try self.id(reference)
        try store.transaction { try store.setVoice(on, for: id) }
        _ = try sync.refresh([id])
        return try status(of: id)
    }

    /// Turns the alarm on or off (`alarm on`, `alarm off`): off, it keeps its id, settings and voice
    /// file, and the scheduler holds neither it nor a snooze of it; on, it is scheduled again.
    /// - Throws: `LibraryError.unknownAlarm`; the scheduler's error when it cannot follow (the
    ///   switch is then put back, so what the library says and what rings stay the same).
    package func setOn(_ on: Bool, for reference: String) throws -> AlarmStatus {
        let id = try self.id(reference)
        guard let stored = try store.alarm(id) else { throw LibraryError.unknownAlarm(id.uuidString.lowercased()) }
        guard stored.alarm.isOn != on else { return try status(of: id) }
        try store.transaction { try store.setOn(on, for: id) }
        if on {
            _ = try sync.refresh([id])  // a rebuild owed is made, then it is scheduled (or a warning says why not)
        } else {
            do { try sync.unschedule(id) } catch {
                // Still held: the switch goes back, so the library says what the scheduler rings.
                try? store.transaction { try store.setOn(true, for: id) }
                throw error
            }
        }
        return try status(of: id)
    }

    /// Every alarm with what it will really play and when it rings next.
    package func statuses() throws -> [AlarmStatus] {
        let holidays = try store.holidayDates()
        let generated = Set(try store.clips().filter(\.isGenerated).map(\.id))
        let targets = generated.isEmpty ? [:] : try store.allTargetClips()
        let snoozes = try sync.liveSnoozes()
        return try store.alarms().map { stored in
            var status = status(stored, standIns: (targets[stored.alarm.target] ?? []).filter(generated.contains), holidays: holidays)
            status.snoozedUntil = snoozes.first { $0.alarm == stored.alarm.id }?.ringAt
            return status
        }
    }

    /// One alarm with what it will really play and when it rings next.
    /// - Throws: `LibraryError.unknownAlarm` when there is no such alarm.
    package func status(of id: UUID) throws -> AlarmStatus {
        guard let stored = try store.alarm(id) else { throw LibraryError.unknownAlarm(id.uuidString.lowercased()) }
        let generated = Set(try store.clips().filter(\.isGenerated).map(\.id))
        var status = status(stored, standIns: try store.clips(of: stored.alarm.target).filter(generated.contains), holidays: try store.holidayDates())
        status.snoozedUntil = try sync.liveSnoozes().first { $0.alarm == id }?.ringAt
        return status
    }

    /// The alarm a person means by a full id or a unique prefix of at least 8 characters.
    package func id(_ reference: String) throws -> UUID {
        try ids.resolve(reference, in: .alarms, kind: "alarm") { .unknownAlarm($0) }
    }

    private func status(_ stored: StoredAlarm, standIns: [UUID], holidays: Set<LocalDate>) -> AlarmStatus {
        var seen = Set<UUID>()
        return AlarmStatus(
            stored: stored, sound: sync.builder.resolve(stored), next: stored.alarm.nextRing(after: now(), in: timeZone, holidays: holidays),
            hasFinished: stored.alarm.isFinished(at: now(), in: timeZone), skips: stored.alarm.skips.ahead(of: LocalDate(now(), in: timeZone)),
            spokenStandIns: standIns.filter { seen.insert($0).inserted })
    }
}
