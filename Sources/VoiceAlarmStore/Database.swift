internal import CSQLite
import Foundation

/// One SQLite connection, owned: closed in `deinit`. WAL mode, a busy timeout, foreign keys on.
///
/// ```swift
/// let db = try Database(path: "voicealarm.sqlite")
/// try db.immediateTransaction { try db.execute("INSERT …", [.text(id)]) }
/// ```
/// Rules and the writes they guard run inside `immediateTransaction` (`BEGIN IMMEDIATE`), so two
/// processes never both pass a check and then both write: a deferred transaction that later
/// writes can fail with `SQLITE_BUSY_SNAPSHOT` without the busy handler ever being called.
public final class Database {
    public let path: String
    private var handle: OpaquePointer?

    /// How long a writer waits for another process's transaction before giving up.
    public static let busyTimeoutMilliseconds: Int32 = 10_000

    /// Opens (creating, mode 0600) the database at `path`. The corresponding C function is
    /// `sqlite3_open_v2`. SQLite gives its `-wal` and `-shm` files the database file's mode, so
    /// creating the file first with 0600 keeps all three private whatever the umask.
    public init(path: String) throws {
        self.path = path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if fd >= 0 { close(fd) }   // a failure here is reported by sqlite3_open_v2 below, with its own words
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close_v2(handle)
            handle = nil
            throw StoreError.sqlite(path: path, operation: "open", code: rc, message: message)
        }
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
        try execute("PRAGMA foreign_keys = ON")
    }

    deinit { sqlite3_close_v2(handle) }

    /// A value bound to a statement's `?` or read from a column.
    public enum Value: Equatable, Sendable {
        case null, integer(Int64), real(Double), text(String)

        public var text: String? { if case .text(let s) = self { s } else { nil } }
        public var integer: Int64? { if case .integer(let i) = self { i } else { nil } }
        public var int: Int? { integer.map(Int.init) }
        public var real: Double? {
            switch self {
            case .real(let d): d
            case .integer(let i): Double(i)
            default: nil
            }
        }
    }

    /// Runs one statement, discarding rows.
    public func execute(_ sql: String, _ bindings: [Value] = []) throws {
        _ = try query(sql, bindings)
    }

    /// Runs one statement and returns its rows, each a column-name → value map.
    public func query(_ sql: String, _ bindings: [Value] = []) throws -> [[String: Value]] {
        let statement = try Statement(database: self, sql: sql)
        try statement.bind(bindings)
        var rows: [[String: Value]] = []
        while let row = try statement.step() { rows.append(row) }
        return rows
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if it throws.
    public func immediateTransaction<T>(_ body: () throws -> T) throws -> T {
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
    public var userVersion: Int {
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
                let rc: Int32 = switch value {
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
                row[name] = switch sqlite3_column_type(statement, column) {
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
