import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// The library's memory: clips, playlists and the manifesto, alarms, settings, in
/// `<data-dir>/voicealarm.sqlite`. The only module that speaks SQL.
///
/// Checks and the writes they guard run in one `BEGIN IMMEDIATE` transaction, so several
/// `voicealarm` processes never lose an update; nothing slow (rendering) runs inside one.
package final class LibraryStore {
    package let dataDirectory: String
    package var clipsDirectory: String { "\(dataDirectory)/clips" }
    package var databasePath: String { "\(dataDirectory)/voicealarm.sqlite" }
    /// The last-known-good copy of the library, rewritten after every change (`LibraryBackup`).
    package var backupPath: String { "\(dataDirectory)/\(LibraryBackup.fileName)" }
    /// True when opened only to read (a read-only or full disk, a locked database).
    package let isReadOnly: Bool
    let db: Database
    var transactionDepth = 0
    /// How many `deferringBackup` bodies are running, and whether a change inside one owes the
    /// backup its rewrite.
    var backupDeferrals = 0
    var backupOwed = false
    /// False for a rebuild worker's own connection: its caller rewrites the backup once, from
    /// the whole library, after every worker is done.
    package var writesBackup = true
    /// How many changes this connection has made (a rebuild worker's caller asks whether it made any).
    package private(set) var changeCount = 0

    /// Opens the library in `dataDirectory`, creating it (mode 0700) when there is none, and
    /// migrating the schema. A database file that exists but is not whole is never replaced.
    /// - Throws: `StoreError.damaged` for an empty, truncated or foreign database file;
    ///   `StoreError` when the folder cannot be made or written, or SQLite fails.
    /// - Parameter busyTimeout: how long to wait for another process's hold on the database (ms).
    package init(dataDirectory: String, busyTimeout: Int32 = Database.busyTimeoutMilliseconds) throws {
        self.dataDirectory = dataDirectory
        isReadOnly = false
        try Self.makePrivateDirectory(dataDirectory)
        try Self.makePrivateDirectory("\(dataDirectory)/clips", links: .ownOnly)
        StaleFiles.sweep("\(dataDirectory)/clips")
        let path = "\(dataDirectory)/voicealarm.sqlite"
        if FileSystem.kind(of: path) == .missing {
            // A missing database beside a backup that holds alarms is a lost library, not a new one.
            if let backup = LibraryBackup.read("\(dataDirectory)/\(LibraryBackup.fileName)"), !backup.alarms.isEmpty {
                throw StoreError.damaged(path: path, reason: "it is missing, but \(LibraryBackup.fileName) holds \(backup.alarms.count) alarms")
            }
            try Database.create(at: path, schema: Schema.migrate)
        }
        try Self.checkOwnFile(path)
        db = try Database(path: path, busyTimeout: busyTimeout)   // checked whole before anything is written
        try Schema.migrate(db)
    }

    /// Refuses a database file of another user, and makes one that others may read or write
    /// (0644, 0666) private again, with its journal files: a voice library is personal.
    static func checkOwnFile(_ path: String) throws {
        for file in [path, path + "-wal", path + "-shm"] {
            guard let status = try? FileSystem.status(of: file), FileSystem.kind(of: file) == .regular else { continue }
            guard status.owner == FileSystem.currentUser else {
                throw StoreError.dataDirectory(path: file, reason: notYours(owner: status.owner, permissions: status.permissions))
            }
            if status.permissions & 0o077 != 0 { try? FileSystem.setPermissions(file, 0o600) }
        }
    }

    /// A store over a database being made (`LibraryBackup.restoreAsLibrary(in:)`).
    init(restoring db: Database, dataDirectory: String) {
        self.dataDirectory = dataDirectory
        isReadOnly = false
        self.db = db
    }

    /// Opens a damaged database only to read what can still be read (no intactness check).
    init(salvaging path: String, dataDirectory: String) throws {
        self.dataDirectory = dataDirectory
        isReadOnly = true
        db = try Database(path: path, mode: .readOnly)
    }

    /// Opens an existing library only to read it, writing nothing (no lock, no journal): what a
    /// ring falls back to when the library cannot be opened to write.
    /// - Parameter path: the database file; the library's own by default.
    /// - Throws: `StoreError` when there is no database, or it is damaged.
    package init(readingOnly dataDirectory: String, path: String? = nil) throws {
        self.dataDirectory = dataDirectory
        isReadOnly = true
        let path = path ?? "\(dataDirectory)/voicealarm.sqlite"
        guard FileSystem.kind(of: path) != .missing else { throw StoreError.damaged(path: path, reason: "there is no library here") }
        db = try Database(path: path, mode: .readOnly)
        try db.checkIntact()
    }

    /// Opens the library only to read it, beside the processes writing it: it sees their last
    /// commit and never waits for their transactions (SQLite's write-ahead log). For questions
    /// that must be answered while a rebuild writes: which device a token belongs to.
    /// - Throws: `StoreError` when there is no database, or it is damaged.
    package init(readingAlongside dataDirectory: String) throws {
        self.dataDirectory = dataDirectory
        isReadOnly = true
        db = try Database(path: "\(dataDirectory)/voicealarm.sqlite", mode: .reading)
    }

    /// The storage's integrity, as `PRAGMA integrity_check` reports it ("ok" when sound).
    package func integrityCheck() throws -> String {
        try db.query("PRAGMA integrity_check").first?.values.first?.text ?? "no answer"
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction; the backup is rewritten once it commits.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try changing { try db.immediateTransaction(body) }
    }

    /// Runs one change, then (outside any transaction) brings the database file up to date with
    /// its log (for readers that cannot use the log) and rewrites the last-known-good copy. Both
    /// are safety nets: failing them (a full disk) does not fail the change.
    func changing<T>(_ body: () throws -> T) throws -> T {
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        let result = try body()
        if transactionDepth == 1 {
            backupOwed = true
            changeCount += 1
        }
        if transactionDepth == 1, backupDeferrals == 0 { settleBackup() }
        return result
    }

    // MARK: Clips

    package func insertClip(_ clip: LibraryClip) throws {
        try changing {
            try db.execute("""
                INSERT INTO clips (id, title, file_name, frames, trimmed_start, trimmed_length, sample_rate, content_hash, spoken_text, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, Self.clipValues(clip) + [.text(Self.timestamp())])
        }
    }

    /// Gives a clip new audio (a re-recording, or generated audio arriving).
    package func updateClipAudio(_ clip: LibraryClip) throws {
        try changing {
            try db.execute("""
                UPDATE clips SET file_name = ?, frames = ?, trimmed_start = ?, trimmed_length = ?, sample_rate = ?, content_hash = ?,
                spoken_text = ? WHERE id = ?
                """, [.text(clip.fileName), .integer(Int64(clip.frames)), .integer(Int64(clip.trimmedStart)),
                      .integer(Int64(clip.trimmedLength)), .integer(Int64(clip.sampleRate)), .text(clip.contentHash),
                      clip.spokenText.map { .text($0) } ?? .null, .text(clip.idString)])
        }
    }

    /// Gives a clip a new title; its audio and every playlist position stay.
    package func renameClip(_ id: UUID, title: String) throws {
        try changing {
            try db.execute("UPDATE clips SET title = ? WHERE id = ?", [.text(title), .text(id.uuidString.lowercased())])
        }
    }

    package func clips() throws -> [LibraryClip] {
        try db.query("SELECT * FROM clips ORDER BY rowid").compactMap(Self.clip)
    }

    package func clip(_ id: UUID) throws -> LibraryClip? {
        try db.query("SELECT * FROM clips WHERE id = ?", [.text(id.uuidString.lowercased())]).first.flatMap(Self.clip)
    }

    /// Ids of `table` whose first characters are `prefix`: how a user's short id is looked up.
    /// Compared character for character (`substr`), never as a `LIKE` pattern, so no character
    /// of a reference stands for another; `IDPrefix` has already refused anything but an id's.
    package func ids(in table: IDTable, startingWith prefix: IDPrefix) throws -> [UUID] {
        try db.query("SELECT id FROM \(table.rawValue) WHERE substr(id, 1, ?) = ? ORDER BY id",
                     [.integer(Int64(prefix.text.count)), .text(prefix.text)])
            .compactMap { $0["id"]?.text.flatMap(UUID.init(uuidString:)) }
    }

    package enum IDTable: String { case clips, alarms, devices }

    /// Removes a clip, and every place it holds in a playlist or the manifesto (later positions
    /// close up). Returns the targets that changed.
    package func deleteClip(_ id: UUID) throws -> [Target] {
        try changing {
            let key = Database.Value.text(id.uuidString.lowercased())
            let touched = try db.query("SELECT DISTINCT t.kind, t.name FROM target_clips tc JOIN targets t ON t.id = tc.target_id WHERE tc.clip_id = ?", [key])
                .map(Self.target)
            for target in touched {
                try setClips(try clips(of: target).filter { $0 != id }, of: target)
            }
            try db.execute("DELETE FROM clips WHERE id = ?", [key])
            return touched
        }
    }

    // MARK: Targets

    /// Playlist names, in the order they were created.
    package func playlistNames() throws -> [String] {
        try db.query("SELECT name FROM targets WHERE kind = 'playlist' ORDER BY id").compactMap { $0["name"]?.text }
    }

    /// The stored spelling of a target, or nil when there is no such playlist.
    package func existingTarget(_ target: Target) throws -> Target? {
        guard case .playlist(let name) = target else { return .manifesto }
        return try db.query("SELECT name FROM targets WHERE kind = 'playlist' AND name = ?", [.text(name)])
            .first?["name"]?.text.map(Target.playlist)
    }

    package func createPlaylist(_ name: String) throws {
        try changing {
            try db.execute("INSERT INTO targets (kind, name) VALUES ('playlist', ?)", [.text(name)])
        }
    }

    /// Renames a playlist; its alarms point at it by row, so they follow.
    package func renamePlaylist(_ name: String, to newName: String) throws {
        try changing {
            try db.execute("UPDATE targets SET name = ? WHERE kind = 'playlist' AND name = ?", [.text(newName), .text(name)])
        }
    }

    package func deletePlaylist(_ name: String) throws {
        try changing {
            try db.execute("DELETE FROM targets WHERE kind = 'playlist' AND name = ?", [.text(name)])
        }
    }

    /// A target's clips, in order (a clip may appear more than once).
    package func clips(of target: Target) throws -> [UUID] {
        try db.query("""
            SELECT tc.clip_id FROM target_clips tc JOIN targets t ON t.id = tc.target_id
            WHERE \(Self.targetWhere) ORDER BY tc.position
            """, Self.targetKey(target)).compactMap { $0["clip_id"]?.text.flatMap(UUID.init(uuidString:)) }
    }

    /// Replaces a target's clips with `clips`, in that order.
    package func setClips(_ clips: [UUID], of target: Target) throws {
        try changing {
            guard let id = try db.query("SELECT id FROM targets t WHERE \(Self.targetWhere)", Self.targetKey(target)).first?["id"]?.integer else {
                preconditionFailure("setClips on a target that does not exist: \(target)")
            }
            try db.execute("DELETE FROM target_clips WHERE target_id = ?", [.integer(id)])
            for (position, clip) in clips.enumerated() {
                try db.execute("INSERT INTO target_clips (target_id, position, clip_id) VALUES (?, ?, ?)",
                               [.integer(id), .integer(Int64(position + 1)), .text(clip.uuidString.lowercased())])
            }
        }
    }

    /// Every target's clips: what `LibraryChange.affectedAlarms` needs.
    package func allTargetClips() throws -> [Target: [UUID]] {
        var result: [Target: [UUID]] = [:]
        for row in try db.query("SELECT t.kind, t.name, tc.clip_id FROM target_clips tc JOIN targets t ON t.id = tc.target_id ORDER BY t.id, tc.position") {
            if let clip = row["clip_id"]?.text.flatMap(UUID.init(uuidString:)) { result[Self.target(row), default: []].append(clip) }
        }
        return result
    }

    // MARK: Alarms

    package func alarms() throws -> [StoredAlarm] {
        try db.query("SELECT a.*, t.kind, t.name FROM alarms a JOIN targets t ON t.id = a.target_id ORDER BY a.hour, a.minute, a.rowid")
            .compactMap(Self.storedAlarm)
    }

    /// The ids of alarm rows that do not make an alarm (edited or damaged: neither weekly nor
    /// dated, a time out of range): `alarms()` leaves them out, so they are reported, and a
    /// reconcile never cancels what the scheduler holds for them.
    package func unreadableAlarmIDs() throws -> [UUID] {
        try db.query("SELECT a.*, t.kind, t.name FROM alarms a LEFT JOIN targets t ON t.id = a.target_id ORDER BY a.rowid").compactMap { row in
            guard Self.storedAlarm(row) == nil || row["kind"] == nil || row["kind"]?.text == nil else { return nil }
            return row["id"]?.text.flatMap(UUID.init(uuidString:))
        }
    }

    package func alarm(_ id: UUID) throws -> StoredAlarm? {
        try db.query("SELECT a.*, t.kind, t.name FROM alarms a JOIN targets t ON t.id = a.target_id WHERE a.id = ?",
                     [.text(id.uuidString.lowercased())]).first.flatMap(Self.storedAlarm)
    }

    package func insertAlarm(_ alarm: Alarm) throws {
        try changing {
            let targetID = try db.query("SELECT id FROM targets t WHERE \(Self.targetWhere)", Self.targetKey(alarm.target)).first?["id"]?.integer
            guard let targetID else { preconditionFailure("an alarm on a target that does not exist: \(alarm.target)") }
            try db.execute("""
                INSERT INTO alarms (id, target_id, hour, minute, days, date, label, voice, snooze_minutes, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(alarm.idString), .integer(targetID), .integer(Int64(alarm.time.hour)), .integer(Int64(alarm.time.minute)),
                      .integer(Int64(alarm.days.rawValue)), alarm.date.map { .text($0.description) } ?? .null,
                      alarm.label.map { .text($0) } ?? .null, .integer(alarm.voice ? 1 : 0),
                      alarm.snoozeMinutes.map { .integer(Int64($0)) } ?? .null, .text(Self.timestamp())])
        }
    }

    package func deleteAlarm(_ id: UUID) throws {
        try changing {
            try db.execute("DELETE FROM alarms WHERE id = ?", [.text(id.uuidString.lowercased())])
        }
    }

    package func setVoice(_ on: Bool, for id: UUID) throws {
        try changing {
            try db.execute("UPDATE alarms SET voice = ? WHERE id = ?", [.integer(on ? 1 : 0), .text(id.uuidString.lowercased())])
        }
    }

    /// Records what an alarm now plays: a voice file built from `identity` (with its stamp once
    /// checked), or the default tone and why.
    /// Clears any rebuild owed.
    package func setSound(for id: UUID, file: String?, identity: String?, reason: String?, stamp: FileStamp? = nil,
                         recordings: String? = nil) throws {
        try changing {
            try db.execute("""
                UPDATE alarms SET sound_file = ?, sound_identity = ?, sound_reason = ?, sound_stamp = ?, sound_recordings = ?,
                rebuild_pending = NULL WHERE id = ?
                """, [file.map { .text($0) } ?? .null, identity.map { .text($0) } ?? .null,
                      reason.map { .text($0) } ?? .null, stamp.map { .text(Self.text(of: $0)) } ?? .null,
                      recordings.map { .text($0) } ?? .null, .text(id.uuidString.lowercased())])
        }
    }

    /// Notes that an alarm's rebuild is owed (the machine stopped it) and why; its voice file stays as recorded.
    package func markRebuildPending(_ id: UUID, reason: String) throws {
        try changing {
            try db.execute("UPDATE alarms SET rebuild_pending = ? WHERE id = ?", [.text(reason), .text(id.uuidString.lowercased())])
        }
    }

    /// Records which recordings an alarm's current voice file was made from.
    package func setSoundRecordings(_ recordings: String, for id: UUID) throws {
        try db.execute("UPDATE alarms SET sound_recordings = ? WHERE id = ?", [.text(recordings), .text(id.uuidString.lowercased())])
    }

    /// Records the stamp of an alarm's voice file that was just checked and passed.
    package func setSoundStamp(_ stamp: FileStamp, for id: UUID) throws {
        try db.execute("UPDATE alarms SET sound_stamp = ? WHERE id = ?", [.text(Self.text(of: stamp)), .text(id.uuidString.lowercased())])
    }
}
