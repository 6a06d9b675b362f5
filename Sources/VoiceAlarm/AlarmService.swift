import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmStore

/// The library's operations, with its rules: every change to a recording, a playlist, the
/// manifesto, the settings or the voice switch flows through to exactly the alarms it touches —
/// their ringtone rebuilt (or the default tone chosen, with a reason) and re-scheduled.
///
/// ```swift
/// let service = try AlarmService(dataDirectory: dir, soundsDirectory: nil, scheduler: EmbeddedScheduler(dataDirectory: dir))
/// let clip = try service.importClip("calm.wav", title: "Calm")
/// try service.createPlaylist("morning", clips: [clip.id])
/// let added = try service.addAlarm(on: .playlist("morning"), at: AlarmTime(hour: 7, minute: 0), days: .everyDay)
/// ```
/// Rules and the writes they guard run in one store transaction; rendering runs outside any.
public final class AlarmService {
    public let store: LibraryStore
    public let sounds: SoundsDirectory
    public let scheduler: any AlarmScheduler
    /// "Now", injected so schedule logic is tested without waiting.
    public let now: @Sendable () -> Date
    public let timeZone: TimeZone
    /// Where warnings for a person go (clips left out, scheduler failures).
    public var warn: (String) -> Void

    public init(store: LibraryStore, sounds: SoundsDirectory, scheduler: any AlarmScheduler,
                now: @escaping @Sendable () -> Date = Date.init, timeZone: TimeZone = .current,
                warn: @escaping (String) -> Void = { _ in }) {
        self.store = store
        self.sounds = sounds
        self.scheduler = scheduler
        self.now = now
        self.timeZone = timeZone
        self.warn = warn
    }

    // MARK: Settings

    /// The library's render settings, as remembered in the data dir.
    public func renderSettings() throws -> RenderSettings {
        try LibrarySettings.renderSettings(from: store.settings())
    }

    /// Changes one render setting and rebuilds every voice alarm (removing files whose extension changed).
    public func changeSetting(_ key: String, to value: String) throws -> RebuildSummary {
        let current = try store.settings()
        var updated = current
        updated[key] = value
        _ = try LibrarySettings.renderSettings(from: updated)   // validates the whole set
        try store.setSetting(key, value)
        guard current[key] != value else { return RebuildSummary() }
        return try rebuild(affectedBy: .settings)
    }

    // MARK: Clips

    /// Stores a recording (a lossless copy in `clips/`, exact lengths and a content hash) and
    /// returns the new clip. Refuses files that are not audio, or silent.
    public func importClip(_ file: String, title: String?) throws -> LibraryClip {
        let id = UUID()
        let name = id.uuidString.lowercased()
        let archived = try ClipArchive.store(file, into: store.clipsDirectory, name: name)
        let clip = LibraryClip(id: id, title: title ?? Self.defaultTitle(for: file), fileName: "\(name).flac",
                               frames: archived.frames, trimmedStart: archived.trimmedStart, trimmedLength: archived.trimmedLength,
                               sampleRate: ClipArchive.sampleRate, contentHash: archived.contentHash)
        do {
            try store.insertClip(clip)
        } catch {
            unlink(archived.path)
            throw error
        }
        return clip
    }

    /// Gives a clip new audio and rebuilds every alarm whose target uses it.
    public func replaceClip(_ reference: String, with file: String) throws -> (LibraryClip, RebuildSummary) {
        let old = try clip(reference)
        // A new file name, so the old copy stays whole until the record points at the new one.
        let name = "\(old.idString)-\(UUID().uuidString.prefix(8).lowercased())"
        let archived = try ClipArchive.store(file, into: store.clipsDirectory, name: name)
        var clip = old
        clip.fileName = "\(name).flac"
        clip.frames = archived.frames
        clip.trimmedStart = archived.trimmedStart
        clip.trimmedLength = archived.trimmedLength
        clip.contentHash = archived.contentHash
        do {
            try store.updateClipAudio(clip)
        } catch {
            unlink(archived.path)
            throw error
        }
        if old.fileName != clip.fileName { unlink("\(store.clipsDirectory)/\(old.fileName)") }
        return (clip, try rebuild(affectedBy: .clip(clip.id)))
    }

    /// Removes a clip, and it from every playlist and the manifesto using it; their alarms are rebuilt.
    public func removeClip(_ reference: String) throws -> ([Target], RebuildSummary) {
        let clip = try clip(reference)
        let targets = try store.transaction { try store.deleteClip(clip.id) }
        unlink("\(store.clipsDirectory)/\(clip.fileName)")
        var summary = RebuildSummary()
        for target in targets { summary.merge(try rebuild(affectedBy: .target(target))) }
        return (targets, summary)
    }

    public func clips() throws -> [LibraryClip] { try store.clips() }

    /// The clip a user means by a full id or a unique prefix of at least 8 characters.
    public func clip(_ reference: String) throws -> LibraryClip {
        let id = try resolve(reference, in: .clips, kind: "clip") { .unknownClip($0) }
        guard let clip = try store.clip(id) else { throw LibraryError.unknownClip(reference) }
        return clip
    }

    // MARK: Playlists and the manifesto

    public func playlists() throws -> [String] { try store.playlistNames() }

    /// Creates a playlist, optionally with clips.
    public func createPlaylist(_ name: String, clips references: [String] = []) throws {
        try Self.validatePlaylistName(name)
        let ids = try references.map { try clip($0).id }
        try store.transaction {
            if try store.existingTarget(.playlist(name)) != nil { throw LibraryError.playlistExists(name) }
            try store.createPlaylist(name)
            try store.setClips(ids, of: .playlist(name))
        }
    }

    /// The clips of a target, in order.
    public func clips(of target: Target) throws -> [LibraryClip] {
        let resolved = try existing(target)
        let all = Dictionary(uniqueKeysWithValues: try store.clips().map { ($0.id, $0) })
        return try store.clips(of: resolved).compactMap { all[$0] }
    }

    /// Appends clips to a playlist.
    public func addToPlaylist(_ name: String, clips references: [String]) throws -> RebuildSummary {
        let ids = try references.map { try clip($0).id }
        return try editPlaylist(name) { $0 + ids }
    }

    /// Moves the clip at 1-based `from` to `to`.
    public func moveInPlaylist(_ name: String, from: Int, to: Int) throws -> RebuildSummary {
        try editPlaylist(name) { clips in
            for position in [from, to] where !(1...max(1, clips.count)).contains(position) || clips.isEmpty {
                throw LibraryError.positionOutOfRange(playlist: name, position: position, count: clips.count)
            }
            var moved = clips
            moved.insert(moved.remove(at: from - 1), at: to - 1)
            return moved
        }
    }

    /// Removes the clip at 1-based `position`.
    public func removeFromPlaylist(_ name: String, position: Int) throws -> RebuildSummary {
        try editPlaylist(name) { clips in
            guard (1...max(1, clips.count)).contains(position), !clips.isEmpty else {
                throw LibraryError.positionOutOfRange(playlist: name, position: position, count: clips.count)
            }
            var removed = clips
            removed.remove(at: position - 1)
            return removed
        }
    }

    /// Deletes a playlist; refused while alarms use it unless `withAlarms`, which removes them too.
    public func deletePlaylist(_ name: String, withAlarms: Bool) throws -> [UUID] {
        let target = try existing(.playlist(name))
        let removed: [UUID] = try store.transaction {
            let using = try store.alarms().filter { $0.alarm.target == target }.map(\.alarm.id)
            if !using.isEmpty && !withAlarms { throw LibraryError.playlistInUse(target.description, alarms: using.count) }
            for id in using { try store.deleteAlarm(id) }
            guard case .playlist(let stored) = target else { preconditionFailure("the manifesto is not a playlist") }
            try store.deletePlaylist(stored)
            return using
        }
        for id in removed { retire(id) }
        return removed
    }

    /// Sets the manifesto's one recording and rebuilds its alarms.
    public func setManifesto(_ reference: String) throws -> RebuildSummary {
        let id = try clip(reference).id
        try store.transaction { try store.setClips([id], of: .manifesto) }
        return try rebuild(affectedBy: .target(.manifesto))
    }

    private func editPlaylist(_ name: String, _ edit: ([UUID]) throws -> [UUID]) throws -> RebuildSummary {
        let target = try existing(.playlist(name))
        let changed: Bool = try store.transaction {
            let before = try store.clips(of: target)
            let after = try edit(before)
            try store.setClips(after, of: target)
            return after != before
        }
        return changed ? try rebuild(affectedBy: .target(target)) : RebuildSummary()
    }

    /// The stored spelling of a target, or `unknownPlaylist`.
    public func existing(_ target: Target) throws -> Target {
        guard let found = try store.existingTarget(target) else { throw LibraryError.unknownPlaylist(target.description) }
        return found
    }

    // MARK: Alarms

    /// What `addAlarm` did.
    public struct AddedAlarm: Sendable {
        public var status: AlarmStatus
        /// True when this is the target's first alarm: worth suggesting a backup (there is no snooze).
        public var isFirstForTarget: Bool
    }

    /// Adds an alarm after checking the rules (five per target, no overlap, not in the past) in the
    /// same transaction as the insert; then builds its ringtone and schedules it. A sound problem
    /// never stops an alarm from being scheduled: it falls back to the default tone.
    public func addAlarm(on target: Target, at time: AlarmTime, days: Weekdays = [], date: LocalDate? = nil,
                         label: String? = nil, voice: Bool = true) throws -> AddedAlarm {
        let target = try existing(target)
        let instant = now()
        let day = date ?? (days.isEmpty ? AlarmRules.nextOccurrenceDate(of: time, after: instant, in: timeZone) : nil)
        let alarm = Alarm(target: target, time: time, days: days, date: day, label: label, voice: voice)
        let first: Bool = try store.transaction {
            let existing = try store.alarms().map(\.alarm)
            if let violation = AlarmRules.violation(adding: alarm, to: existing, now: instant, timeZone: timeZone) {
                throw LibraryError.rule(alarm, violation)
            }
            try store.insertAlarm(alarm)
            return !existing.contains { $0.target == target && !$0.isFinished(at: instant, in: timeZone) }
        }
        _ = try rebuild([alarm.id])
        return AddedAlarm(status: try status(of: alarm.id), isFirstForTarget: first)
    }

    /// Removes an alarm, its voice file and its schedule.
    public func removeAlarm(_ reference: String) throws -> UUID {
        let id = try alarmID(reference)
        try store.transaction { try store.deleteAlarm(id) }
        retire(id)
        return id
    }

    /// "Wake up to my voice": off → default tone and the voice file deleted; on → built and used again.
    public func setVoice(_ on: Bool, for reference: String) throws -> AlarmStatus {
        let id = try alarmID(reference)
        try store.transaction { try store.setVoice(on, for: id) }
        _ = try rebuild([id])
        return try status(of: id)
    }

    /// Every alarm with what it will really play and when it rings next.
    public func alarmStatuses() throws -> [AlarmStatus] {
        try store.alarms().map(status)
    }

    public func status(of id: UUID) throws -> AlarmStatus {
        guard let stored = try store.alarm(id) else { throw LibraryError.unknownAlarm(id.uuidString.lowercased()) }
        return status(stored)
    }

    public func alarmID(_ reference: String) throws -> UUID {
        try resolve(reference, in: .alarms, kind: "alarm") { .unknownAlarm($0) }
    }

    // MARK: Rebuilding

    /// Rebuilds the alarms `change` affects, and only those.
    public func rebuild(affectedBy change: LibraryChange) throws -> RebuildSummary {
        let alarms = try store.alarms().map(\.alarm)
        let affected = change.affectedAlarms(alarms, targetClips: try store.allTargetClips())
        return try rebuild(affected.map(\.id))
    }

    /// Brings each alarm's voice file in line with its target and the settings, then schedules it.
    /// An unchanged ringtone (same inputs, same settings) is not rewritten.
    public func rebuild(_ ids: [UUID]) throws -> RebuildSummary {
        let settings = try renderSettings()
        var summary = RebuildSummary()
        for id in ids {
            guard let stored = try store.alarm(id) else { continue }
            let outcome = buildSound(for: stored, settings: settings)
            switch outcome {
            case .unchanged: summary.unchanged.append(id)
            case .built: summary.rebuilt.append(id)
            case .defaultTone(let reason): summary.onDefault.append((id, reason))
            }
            schedule(id)
        }
        return summary
    }

    private enum BuildOutcome { case unchanged, built, defaultTone(String) }

    private func buildSound(for stored: StoredAlarm, settings: RenderSettings) -> BuildOutcome {
        let alarm = stored.alarm
        do {
            guard alarm.voice else { return try fallBack(alarm.id, reason: SoundResolution.voiceOff.reason!) }
            var clips = try clips(of: alarm.target).filter { clip in
                let present = FileManager.default.fileExists(atPath: "\(store.clipsDirectory)/\(clip.fileName)")
                if !present { warn("warning: clip \(clip.idString) (\(clip.title)): its recording is missing; left out of \(alarm.target)") }
                return present
            }
            guard !clips.isEmpty else { return try fallBack(alarm.id, reason: SoundResolution.noRecording.reason!) }
            let fileName = SoundsDirectory.fileName(for: alarm.id, format: settings.format)
            while true {
                let plan = LibraryPlan(clips: clips, settings: settings)
                let identity = ContentHash.sha256(plan.identity)
                if stored.soundIdentity == identity, stored.soundFile == fileName, isShippable(fileName) {
                    return .unchanged
                }
                do {
                    let sources = clips.map { StoredClipSource(clip: $0, clipsDirectory: store.clipsDirectory) }
                    _ = try RingtoneRenderer().render(sources, settings: settings, to: sounds.path(of: fileName))
                } catch let error as ClipSourceError {
                    // One unusable clip is left out of its playlist's ringtone, with a warning.
                    let bad = clips[error.index]
                    warn("warning: clip \(bad.idString) (\(bad.title)) left out of \(alarm.target): \(error)")
                    clips.removeAll { $0.id == bad.id }
                    guard !clips.isEmpty else { return try fallBack(alarm.id, reason: "no usable recording") }
                    continue
                }
                sounds.makePrivate(fileName)
                try store.setSound(for: alarm.id, file: fileName, identity: identity, reason: nil)
                sounds.removeFiles(of: alarm.id, keeping: fileName)
                if try store.alarm(alarm.id) == nil { sounds.removeFiles(of: alarm.id) }   // removed meanwhile
                return .built
            }
        } catch {
            // A failed rebuild deletes the old voice file: an old recording is the wrong sound.
            let reason = "rebuild failed: \(error)"
            warn("warning: alarm \(alarm.idString): \(reason); it will ring with the default tone")
            return (try? fallBack(alarm.id, reason: reason)) ?? .defaultTone(reason)
        }
    }

    /// Records the default tone for an alarm, then deletes its voice file (record first, so the
    /// store never points at a file that is gone).
    private func fallBack(_ id: UUID, reason: String) throws -> BuildOutcome {
        try store.setSound(for: id, file: nil, identity: nil, reason: reason)
        sounds.removeFiles(of: id)
        return .defaultTone(reason)
    }

    /// Hands an alarm to the scheduler with the sound it resolves to (a finished one-off is
    /// cancelled instead). A scheduler failure is a warning: the library keeps the alarm, and
    /// reconciliation repairs the schedule later.
    private func schedule(_ id: UUID) {
        do {
            guard let stored = try store.alarm(id), !stored.alarm.isFinished(at: now(), in: timeZone) else {
                return try scheduler.cancel(id: id)
            }
            try scheduler.schedule(id: id, configuration: configuration(of: stored))
        } catch {
            warn("warning: alarm \(id.uuidString.lowercased()) could not be scheduled: \(error)")
        }
    }

    /// What the scheduler should hold for an alarm: its schedule and the sound it resolves to.
    public func configuration(of stored: StoredAlarm) -> AlarmConfiguration {
        let sound: AlertSound = switch resolveSound(stored) {
        case .voice(let fileName): .named(fileName)
        case .defaultTone: .default
        }
        return AlarmConfiguration(schedule: stored.alarm.schedule, sound: sound, label: stored.alarm.label)
    }

    /// What `reconcile` did.
    public struct ReconcileReport: Sendable, Equatable {
        public var scheduled: [UUID] = []
        public var updated: [UUID] = []
        public var cancelled: [UUID] = []
        /// Nothing needed doing.
        public var isEmpty: Bool { scheduled.isEmpty && updated.isEmpty && cancelled.isEmpty }
    }

    /// Makes the scheduler hold exactly the library's live alarms: schedules what it lacks,
    /// re-schedules what it holds with a stale sound or schedule, cancels what the library does
    /// not know (and finished one-offs). Voice files that should exist and do not are rebuilt
    /// first. Running it twice in a row does nothing the second time.
    public func reconcile() throws -> ReconcileReport {
        let settings = try renderSettings()
        for stored in try store.alarms() where stored.alarm.voice {
            if case .defaultTone = resolveSound(stored) {
                _ = buildSound(for: stored, settings: settings)
            }
        }
        var desired: [UUID: AlarmConfiguration] = [:]
        for stored in try store.alarms() where !stored.alarm.isFinished(at: now(), in: timeZone) {
            desired[stored.alarm.id] = configuration(of: stored)
        }
        let held = try scheduler.alarms()
        let actual = Dictionary(held.map { ($0.id, $0.configuration) }, uniquingKeysWith: { first, _ in first })
        let stale = Set(held.filter { !scheduler.isCurrent($0) }.map(\.id))
        let plan = ReconcilePlan(desired: desired, actual: actual, stale: stale)
        for id in plan.schedule + plan.update { try scheduler.schedule(id: id, configuration: desired[id]!) }
        for id in plan.cancel { try scheduler.cancel(id: id) }
        return ReconcileReport(scheduled: plan.schedule, updated: plan.update, cancelled: plan.cancel)
    }

    /// Cancels a removed alarm and deletes its files.
    private func retire(_ id: UUID) {
        sounds.removeFiles(of: id)
        do { try scheduler.cancel(id: id) } catch {
            warn("warning: alarm \(id.uuidString.lowercased()) could not be cancelled: \(error)")
        }
    }

    private func status(_ stored: StoredAlarm) -> AlarmStatus {
        AlarmStatus(stored: stored, sound: resolveSound(stored), next: stored.alarm.schedule.nextFire(after: now(), in: timeZone))
    }

    /// What an alarm will actually play: its voice file only when it is on, present, readable,
    /// well-formed and passes the shippable check; otherwise the default tone, with the reason.
    public func resolveSound(_ stored: StoredAlarm) -> SoundResolution {
        guard stored.alarm.voice else { return .voiceOff }
        guard let file = stored.soundFile else { return .defaultTone(reason: stored.soundReason ?? SoundResolution.noRecording.reason!) }
        let path = sounds.path(of: file)
        guard FileManager.default.fileExists(atPath: path) else { return .defaultTone(reason: "voice file \(file) is missing") }
        do {
            let problems = try SoundInspector.inspect(path).problems
            if let problem = problems.first { return .defaultTone(reason: "voice file \(file) fails the check: \(problem)") }
        } catch {
            return .defaultTone(reason: "voice file \(file) cannot be used: \(error)")
        }
        return .voice(fileName: file)
    }

    private func isShippable(_ fileName: String) -> Bool {
        (try? SoundInspector.inspect(sounds.path(of: fileName)).problems.isEmpty) ?? false
    }

    // MARK: Helpers

    private func resolve(_ reference: String, in table: LibraryStore.IDTable, kind: String,
                         unknown: (String) -> LibraryError) throws -> UUID {
        let text = reference.lowercased()
        if let full = UUID(uuidString: text), text.count == 36 {
            guard try store.ids(in: table, startingWith: text).contains(full) else { throw unknown(reference) }
            return full
        }
        guard text.count >= 8 else { throw LibraryError.shortID(reference) }
        let matches = try store.ids(in: table, startingWith: text)
        guard let first = matches.first else { throw unknown(reference) }
        guard matches.count == 1 else { throw LibraryError.ambiguousID(reference, kind: kind, count: matches.count) }
        return first
    }

    static func validatePlaylistName(_ name: String) throws {
        if name.lowercased() == Target.manifestoName { throw LibraryError.reservedName(name) }
        if name.trimmingCharacters(in: .whitespaces).isEmpty { throw LibraryError.invalidName(name, reason: "a playlist needs a name") }
        if name.count > 100 { throw LibraryError.invalidName(name, reason: "at most 100 characters") }
        if name.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) {
            throw LibraryError.invalidName(name, reason: "control characters are not allowed")
        }
    }

    static func defaultTitle(for file: String) -> String {
        URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
    }
}

extension RebuildSummary {
    mutating func merge(_ other: RebuildSummary) {
        rebuilt += other.rebuilt
        unchanged += other.unchanged
        onDefault += other.onDefault
    }
}
