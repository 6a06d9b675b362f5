import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmStore

/// VoiceAlarm's own scheduler: its list of scheduled alarms lives in
/// `<data-dir>/embedded-scheduler.sqlite`, apart from the library's alarm records, as a system
/// daemon's list is — so reconciling the two means something.
package final class EmbeddedScheduler: AlarmScheduler {
    private let db: Database
    package let dataDirectory: String
    /// The clock a scheduled alarm's `updated_at` comes from.
    let now: @Sendable () -> Date

    /// The list's file in a data dir.
    package static func databasePath(in dataDirectory: String) -> String { "\(dataDirectory)/embedded-scheduler.sqlite" }

    /// Opens the list in `dataDirectory`, making it when there is none.
    /// - Throws: `StoreError.damaged` for a list file that is not whole (the library can make it
    ///   again: see `LibraryOpener`); `StoreError` when SQLite fails.
    package init(dataDirectory: String, now: @escaping @Sendable () -> Date = Date.init) throws {
        self.dataDirectory = dataDirectory
        self.now = now
        let path = Self.databasePath(in: dataDirectory)
        if FileSystem.kind(of: path) == .missing {
            try Database.create(at: path) { db in
                try db.execute("CREATE TABLE scheduled (id TEXT PRIMARY KEY, configuration TEXT NOT NULL, updated_at TEXT NOT NULL)")
                try db.execute("PRAGMA user_version = 1")
            }
        }
        db = try Database(path: path)  // checked whole before anything is written
    }

    /// Its alarms ring while `voicealarm daemon` runs (`ringsThroughDaemon`); each ring reads
    /// the remembered device, so `carrying(device:)` is itself.
    package var backend: SchedulerBackend { .embedded }

    package func schedule(id: UUID, configuration: AlarmConfiguration) throws {
        let json = String(decoding: try JSONEncoder().encode(configuration), as: UTF8.self)
        try db.execute(
            """
            INSERT INTO scheduled (id, configuration, updated_at) VALUES (?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET configuration = excluded.configuration, updated_at = excluded.updated_at
            """, [.text(id.uuidString.lowercased()), .text(json), .text(ISO8601DateFormatter().string(from: now()))])
        db.checkpoint()
    }

    package func cancel(id: UUID) throws {
        try db.execute("DELETE FROM scheduled WHERE id = ?", [.text(id.uuidString.lowercased())])
        db.checkpoint()
    }

    /// The list, each time it changes (its own connection, in its own task).
    package func updates(checkingEvery interval: Duration = .seconds(5)) -> AsyncStream<[ScheduledAlarm]> {
        let directory = dataDirectory
        return alarmUpdates(checkingEvery: interval) { try EmbeddedScheduler(dataDirectory: directory).alarms() }
    }

    /// With no daemon running for this data dir, nothing rings these alarms: say so.
    package func problems() -> [SchedulerProblem] {
        DaemonLock.isHeld(dataDirectory: dataDirectory) ? [] : [.noDaemon(dataDirectory: dataDirectory)]
    }

    /// The list in `dataDirectory`, read however it can be: opened normally, else read without
    /// writing anything (a read-only or full disk). What the daemon reads after every wake-up.
    package static func scheduledAlarms(in dataDirectory: String) throws -> [ScheduledAlarm] {
        do {
            return try EmbeddedScheduler(dataDirectory: dataDirectory).alarms()
        } catch let error as StoreError where error.isEnvironmental {
            let db = try Database(path: databasePath(in: dataDirectory), mode: .readOnly)
            try db.checkIntact()
            return try read(db)
        }
    }

    package func alarms() throws -> [ScheduledAlarm] { try Self.read(db) }

    private static func read(_ db: Database) throws -> [ScheduledAlarm] {
        try db.query("SELECT id, configuration FROM scheduled ORDER BY id").compactMap { row in
            guard let id = row["id"]?.text.flatMap(UUID.init(uuidString:)),
                let json = row["configuration"]?.text,
                let configuration = try? JSONDecoder().decode(AlarmConfiguration.self, from: Data(json.utf8))
            else { return nil }
            return ScheduledAlarm(id: id, configuration: configuration)
        }
    }
}
