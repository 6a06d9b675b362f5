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
    /// The clock the rows' `created_at` come from: the service's, once it takes the store.
    package var now: @Sendable () -> Date = Date.init

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
        db = try Database(path: path, busyTimeout: busyTimeout)  // checked whole before anything is written
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
            try db.execute(
                """
                INSERT INTO clips (id, title, file_name, frames, trimmed_start, trimmed_length, sample_rate, content_hash, spoken_text, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, Self.clipValues(clip) + [.text(timestamp())])
        }
    }

    /// Gives a clip new audio (a re-recording, or generated audio arriving).
    package func updateClipAudio(_ clip: LibraryClip) throws {
        try changing {
            try db.execute(
                """
                UPDATE clips SET file_name = ?, frames = ?, trimmed_start = ?, trimmed_length = ?, sample_rate = ?, content_hash = ?,
                spoken_text = ? WHERE id = ?
                """,
                [
                    .text(clip.fileName), .integer(Int64(clip.frames)), .integer(Int64(clip.trimmedStart)),
                    .integer(Int64(clip.trimmedLength)), .integer(Int64(clip.sampleRate)), .text(clip.contentHash),
                    clip.spokenText.map { .text($0) } ?? .null, .text(clip.idString),
                ])
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
        try db.query(
            "SELECT id FROM \(table.rawValue) WHERE substr(id, 1, ?) = ? ORDER BY id",
            [.integer(Int64(prefix.text.count)), .text(prefix.text)]
        )
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
}
