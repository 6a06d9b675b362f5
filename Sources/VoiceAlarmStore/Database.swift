internal import CSQLite
import Foundation
import VoiceAlarmFiles

/// One SQLite connection, owned: closed in `deinit`. WAL mode, a busy timeout, foreign keys on.
///
/// ```swift
/// let db = try Database(path: "voicealarm.sqlite")
/// try db.immediateTransaction { try db.execute("INSERT …", [.text(id)]) }
/// ```
/// Rules and the writes they guard run inside `immediateTransaction` (`BEGIN IMMEDIATE`), so two
/// processes never both pass a check and then both write: a deferred transaction that later
/// writes can fail with `SQLITE_BUSY_SNAPSHOT` without the busy handler ever being called.
package final class Database {
    package let path: String
    private var handle: OpaquePointer?

    /// How long a writer waits for another process's transaction before giving up.
    package static let busyTimeoutMilliseconds: Int32 = 10_000

    /// How a database is opened.
    package enum Mode: Sendable {
        /// An existing database, read and written (WAL). A missing file is an error, never a new database.
        case readWrite
        /// A new database file at a path nothing else uses yet (see `create(at:schema:)`).
        case create
        /// An existing database, only read, without taking locks or writing anything beside it
        /// (`immutable=1`): for a library on a read-only or full disk, or a damaged one being salvaged.
        case readOnly
        /// An existing database, only read, through its write-ahead log beside the processes that
        /// write it (a WAL reader never waits for a writer): what a web request checks a device with.
        case reading
    }

    /// Opens the database at `path`. The corresponding C function is `sqlite3_open_v2`.
    /// - Parameter busyTimeout: how long a writer waits for another process's transaction.
    /// - Throws: `StoreError.damaged` when the file is not a database; `StoreError.sqlite` otherwise.
    package init(path: String, mode: Mode = .readWrite, busyTimeout: Int32 = Database.busyTimeoutMilliseconds) throws {
        self.path = path
        // SQLite takes an empty file for a new database and writes one into it: refuse first.
        if mode != .create, let stamp = try? FileStamp(path: path), stamp.size == 0 {
            throw StoreError.damaged(path: path, reason: "the file is empty (0 bytes)")
        }
        let (name, flags): (String, Int32) =
            switch mode {
            case .readWrite: (path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX)
            case .create: (path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX)
            case .readOnly: (Self.immutableURI(path), SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX)
            case .reading: (path, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX)
            }
        let rc = sqlite3_open_v2(name, &handle, flags, nil)
        guard rc == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close_v2(handle)
            handle = nil
            throw StoreError.sqlite(path: path, operation: "open", code: rc, message: message)
        }
        sqlite3_busy_timeout(handle, busyTimeout)
        // An existing database is checked with reads alone before anything may write to it.
        if mode == .readWrite || mode == .reading { try checkIntact() }
        do {
            if mode == .readWrite || mode == .create {
                try execute("PRAGMA journal_mode = WAL")
                try execute("PRAGMA synchronous = NORMAL")
            }
            try execute("PRAGMA foreign_keys = ON")
        } catch let error as StoreError {
            throw error.asDamage
        }
    }

    /// Makes a new database at `path`, private (0600) and already holding `schema`, only when
    /// nothing is there: it is written under a temporary name and linked into place, so `path`
    /// never holds an empty or half-made database (an empty file at `path` is always damage).
    /// - Returns: false when another process made it first.
    @discardableResult
    package static func create(at path: String, schema: (Database) throws -> Void) throws -> Bool {
        do {
            return try FileSystem.atomicCreate(at: path, permissions: 0o600) { temporary in
                try FileSystem.createEmptyFile(at: temporary, permissions: 0o600)  // SQLite keeps the mode it finds
                let database = try Database(path: temporary, mode: .create)
                try database.execute("PRAGMA journal_mode = DELETE")  // everything in the one file that is linked
                try schema(database)
            }
        } catch let error as SystemError {
            throw StoreError.dataDirectory(path: path, reason: "cannot be created (\(error.reason))")
        }
    }

    /// Refuses a database that is not whole: not a database, without a schema, or failing
    /// SQLite's `quick_check` (an empty file is refused when it is opened). A damaged library is
    /// never taken for a new one.
    /// - Throws: `StoreError.damaged` naming the file and what is wrong.
    package func checkIntact() throws {
        do {
            guard try userVersion > 0 else { throw StoreError.damaged(path: path, reason: "it holds no VoiceAlarm data (no schema)") }
            let verdict = try query("PRAGMA quick_check").compactMap { $0.values.first?.text }
            guard verdict == ["ok"] else {
                throw StoreError.damaged(path: path, reason: "SQLite's quick_check fails: \(verdict.first ?? "no answer")")
            }
        } catch let error as StoreError {
            throw error.asDamage
        }
    }

    /// Copies what the write-ahead log holds into the database file, as far as no reader stops
    /// it, so a reader that cannot use the log (read-only, or salvaging) sees the latest change.
    /// The corresponding pragma is `wal_checkpoint(PASSIVE)`; a checkpoint that cannot run now is not an error.
    package func checkpoint() {
        _ = try? query("PRAGMA wal_checkpoint(PASSIVE)")
    }

    /// `file:PATH?immutable=1`, with the path percent-encoded as SQLite's URI rules need.
    private static func immutableURI(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        return "file:" + (path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path) + "?immutable=1"
    }

    deinit { sqlite3_close_v2(handle) }

    /// A value bound to a statement's `?` or read from a column.
    package enum Value: Equatable, Sendable {
        case null, integer(Int64), real(Double), text(String)

        package var text: String? { if case .text(let s) = self { s } else { nil } }
        package var integer: Int64? { if case .integer(let i) = self { i } else { nil } }
        package var int: Int? { integer.map(Int.init) }
        package var real: Double? {
            switch self {
            case .real(let d): d
            case .integer(let i): Double(i)
            default: nil
            }
        }
    }

    /// Runs one statement, discarding rows.
    package func execute(_ sql: String, _ bindings: [Value] = []) throws {
        _ = try query(sql, bindings)
    }

    /// Runs one statement and returns its rows, each a column-name → value map.
    package func query(_ sql: String, _ bindings: [Value] = []) throws -> [[String: Value]] {
        let statement = try Statement(database: self, sql: sql)
        try statement.bind(bindings)
        var rows: [[String: Value]] = []
        while let row = try statement.step() { rows.append(row) }
        return rows
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if it throws.
    package func immediateTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The schema version kept in `PRAGMA user_version`.
    package var userVersion: Int {
        get throws { try query("PRAGMA user_version").first?["user_version"]?.int ?? 0 }
    }

    func error(_ operation: String, _ code: Int32) -> StoreError {
        .sqlite(path: path, operation: operation, code: code, message: String(cString: sqlite3_errmsg(handle)))
    }

    /// A prepared statement, finalized in `deinit`.
    final class Statement {
        private let database: Database
        private var statement: OpaquePointer?
        private let sql: String

        init(database: Database, sql: String) throws {
            self.database = database
            self.sql = sql
            let rc = sqlite3_prepare_v2(database.handle, sql, -1, &statement, nil)
            guard rc == SQLITE_OK else { throw database.error("prepare \(Self.summary(sql))", rc) }
        }

        deinit { sqlite3_finalize(statement) }

        func bind(_ values: [Value]) throws {
            for (offset, value) in values.enumerated() {
                let index = Int32(offset + 1)
                let rc: Int32 =
                    switch value {
                    case .null: sqlite3_bind_null(statement, index)
                    case .integer(let i): sqlite3_bind_int64(statement, index, i)
                    case .real(let d): sqlite3_bind_double(statement, index, d)
                    case .text(let s): sqlite3_bind_text(statement, index, s, -1, csqlite_transient())
                    }
                guard rc == SQLITE_OK else { throw database.error("bind \(Self.summary(sql))", rc) }
            }
        }

        /// The next row, or nil when done. The corresponding C function is `sqlite3_step`.
        func step() throws -> [String: Value]? {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return nil }
            guard rc == SQLITE_ROW else { throw database.error(Self.summary(sql), rc) }
            var row: [String: Value] = [:]
            for column in 0..<sqlite3_column_count(statement) {
                let name = String(cString: sqlite3_column_name(statement, column))
                row[name] =
                    switch sqlite3_column_type(statement, column) {
                    case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
                    case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
                    case SQLITE_TEXT: .text(String(cString: sqlite3_column_text(statement, column)))
                    default: .null
                    }
            }
            return row
        }

        private static func summary(_ sql: String) -> String {
            let words = sql.split(whereSeparator: \.isWhitespace).prefix(4).joined(separator: " ")
            return "'\(words)…'"
        }
    }
}
