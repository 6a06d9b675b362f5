import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// A last-known-good copy of the library — clips, playlists and the manifesto with their
/// clips in order, alarms with what was built for them, settings — as JSON beside the database
/// (`library-backup.json`, 0600), rewritten after every change. `voicealarm repair` restores
/// from it what SQLite cannot recover from a damaged database.
package struct LibraryBackup: Codable, Equatable, Sendable {
    /// The file's name in the data dir.
    package static let fileName = "library-backup.json"

    package struct Clip: Codable, Equatable, Sendable {
        package var id: UUID, title: String, fileName: String, frames: Int, trimmedStart: Int, trimmedLength: Int
        package var sampleRate: Int, contentHash: String
        /// Absent in copies written before spoken stand-ins existed.
        package var spokenText: String?
    }

    package struct Alarm: Codable, Equatable, Sendable {
        package var id: UUID
        /// `manifesto`, or the playlist's name.
        package var target: String
        package var isManifesto: Bool
        package var hour: Int, minute: Int, days: Int
        package var date: String?, label: String?
        package var voice: Bool
        /// Absent in copies written before snooze existed.
        package var snoozeMinutes: Int?
        /// False for an alarm turned off; absent (on) in copies written before alarms could be.
        package var on: Bool?
        /// The days it does not ring; absent for none.
        package var skips: Skips?
        /// True when it skips holidays; absent for not.
        package var skipHolidays: Bool?
    }

    package var version = 1
    package var clips: [Clip] = []
    /// Playlist names in the order they were made, with their clips in order.
    package var playlists: [String] = []
    package var playlistClips: [String: [UUID]] = [:]
    package var manifesto: [UUID] = []
    package var alarms: [Alarm] = []
    package var settings = LibrarySettings()
    /// The holidays imported; absent in copies written before holidays existed.
    package var holidays: [Holiday]?

    package init() {}

    /// A copy of what `store` holds now.
    package init(of store: LibraryStore) throws {
        clips = try store.clips().map { Clip($0) }
        playlists = try store.playlistNames()
        for name in playlists { playlistClips[name] = try store.clips(of: .playlist(name)) }
        manifesto = try store.clips(of: .manifesto)
        alarms = try store.alarms().map { Alarm($0.alarm) }
        settings = try store.settings()
        let holidays = try store.holidays()
        self.holidays = holidays.isEmpty ? nil : holidays
    }

    /// What can still be read of a damaged database, table by table: whatever SQLite can read
    /// is kept, whatever it cannot is left empty.
    package static func salvage(_ databasePath: String, dataDirectory: String) -> LibraryBackup {
        var copy = LibraryBackup()
        guard let store = try? LibraryStore(salvaging: databasePath, dataDirectory: dataDirectory) else { return copy }
        copy.clips = ((try? store.clips()) ?? []).map { Clip($0) }
        copy.playlists = (try? store.playlistNames()) ?? []
        for name in copy.playlists { copy.playlistClips[name] = try? store.clips(of: .playlist(name)) }
        copy.manifesto = (try? store.clips(of: .manifesto)) ?? []
        copy.alarms = ((try? store.alarms()) ?? []).map { Alarm($0.alarm) }
        copy.settings = (try? store.settings()) ?? LibrarySettings()
        copy.holidays = (try? store.holidays()).flatMap { $0.isEmpty ? nil : $0 }
        return copy
    }

    /// The copy at `path`, or nil when there is none or it cannot be read.
    package static func read(_ path: String) -> LibraryBackup? {
        guard let data = FileSystem.contents(path) else { return nil }
        return try? JSONDecoder().decode(LibraryBackup.self, from: data)
    }

    /// Writes the copy atomically, private to the user.
    package func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try FileSystem.atomicWrite(try encoder.encode(self), to: path, permissions: 0o600, durable: false)
    }

    /// This copy with what `other` holds that this one lacks (by id, or by playlist name).
    package func filled(from other: LibraryBackup) -> LibraryBackup {
        var merged = self
        let clipIDs = Set(clips.map(\.id)), alarmIDs = Set(alarms.map(\.id))
        merged.clips += other.clips.filter { !clipIDs.contains($0.id) }
        for name in other.playlists where !playlists.contains(name) {
            merged.playlists.append(name)
            merged.playlistClips[name] = other.playlistClips[name] ?? []
        }
        if merged.manifesto.isEmpty { merged.manifesto = other.manifesto }
        merged.alarms += other.alarms.filter { !alarmIDs.contains($0.id) }
        merged.settings = settings.filled(from: other.settings)
        if (merged.holidays ?? []).isEmpty { merged.holidays = other.holidays }
        return merged
    }

    /// Whether the copy holds anything at all.
    package var isEmpty: Bool { clips.isEmpty && playlists.isEmpty && alarms.isEmpty && manifesto.isEmpty }

    /// Makes the library in `dataDirectory` from this copy: written under a temporary name and linked
    /// into place only once the whole copy is in, so a failed restore (a full disk, Ctrl-C) never
    /// leaves an empty library where the old one was. Rows the schema refuses are left out.
    /// - Throws: `StoreError` when the database cannot be made or another process made one first.
    package func restoreAsLibrary(in dataDirectory: String) throws {
        let path = "\(dataDirectory)/voicealarm.sqlite"
        let created = try Database.create(at: path) { db in
            try Schema.migrate(db)
            try restore(into: LibraryStore(restoring: db, dataDirectory: dataDirectory))
        }
        guard created else { throw StoreError.dataDirectory(path: path, reason: "another process made a library here while it was being restored") }
    }

    /// Writes the copy into `store` (a new, empty library), in one transaction. Clips that a
    /// playlist or alarm names but the copy lacks are left out; so are alarms on a playlist that is gone.
    package func restore(into store: LibraryStore) throws {
        try store.transaction {
            for (calendar, days) in Dictionary(grouping: holidays ?? [], by: \.calendar) {
                try store.replaceHolidays(of: calendar, with: days)
            }
            var known = Set<UUID>()
            for clip in clips where (try? store.insertClip(clip.libraryClip)) != nil { known.insert(clip.id) }
            var names = Set<String>()  // playlist names are unique whatever their case
            for name in playlists where names.insert(name.lowercased()).inserted {
                guard (try? store.createPlaylist(name)) != nil else { continue }
                try store.setClips((playlistClips[name] ?? []).filter(known.contains), of: .playlist(name))
            }
            try store.setClips(manifesto.filter(known.contains), of: .manifesto)
            for alarm in alarms {
                let target: Target = alarm.isManifesto ? .manifesto : .playlist(alarm.target)
                guard try store.existingTarget(target) != nil, let restored = alarm.alarm else { continue }
                _ = try? store.insertAlarm(restored)
            }
            try store.changeSettings { $0 = settings }
        }
    }
}

extension LibraryBackup.Clip {
    init(_ clip: LibraryClip) {
        self.init(
            id: clip.id, title: clip.title, fileName: clip.fileName, frames: clip.frames, trimmedStart: clip.trimmedStart,
            trimmedLength: clip.trimmedLength, sampleRate: clip.sampleRate, contentHash: clip.contentHash, spokenText: clip.spokenText)
    }

    /// The clip as the library stores it.
    package var libraryClip: LibraryClip {
        LibraryClip(
            id: id, title: title, fileName: fileName, frames: frames, trimmedStart: trimmedStart,
            trimmedLength: trimmedLength, sampleRate: sampleRate, contentHash: contentHash, spokenText: spokenText)
    }
}

extension LibraryBackup.Alarm {
    init(_ alarm: VoiceAlarmCore.Alarm) {
        self.init(
            id: alarm.id, target: alarm.target.description, isManifesto: alarm.target == .manifesto,
            hour: alarm.time.hour, minute: alarm.time.minute, days: alarm.days.rawValue,
            date: alarm.date?.description, label: alarm.label, voice: alarm.voice, snoozeMinutes: alarm.snoozeMinutes,
            on: alarm.isOn ? nil : false, skips: alarm.skips.isEmpty ? nil : alarm.skips,
            skipHolidays: alarm.skipsHolidays ? true : nil)
    }

    /// The alarm, or nil when the copy's fields do not make one.
    package var alarm: VoiceAlarmCore.Alarm? {
        let weekdays = Weekdays(rawValue: days), date = date.flatMap(LocalDate.init(parsing:))
        guard (0...23).contains(hour), (0...59).contains(minute), weekdays.isEmpty != (date == nil) else { return nil }
        return VoiceAlarmCore.Alarm(
            id: id, target: isManifesto ? .manifesto : .playlist(target), time: AlarmTime(hour: hour, minute: minute),
            days: weekdays, date: date, label: label, voice: voice,
            snoozeMinutes: snoozeMinutes.flatMap { Snooze.minutes.contains($0) ? $0 : nil }, isOn: on ?? true,
            skips: skips ?? Skips(), skipsHolidays: skipHolidays ?? false)
    }
}
