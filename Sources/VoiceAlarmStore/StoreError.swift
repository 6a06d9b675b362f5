import VoiceAlarmCore

/// Why the library's store could not do what was asked, with what a user needs to act on it.
package enum StoreError: Error, Equatable, CustomStringConvertible, Sendable {
    /// An SQLite call failed: the database file, the statement's purpose, SQLite's code and text.
    case sqlite(path: String, operation: String, code: Int32, message: String)
    /// The data folder cannot be created or written.
    case dataDirectory(path: String, reason: String)
    /// The database was written by a newer VoiceAlarm.
    case newerSchema(path: String, found: Int, supported: Int)
    /// The database file exists but is not whole (empty, not a database, failing its check).
    case damaged(path: String, reason: String)

    package var description: String {
        switch self {
        case .sqlite(let path, let operation, let code, let message): "\(path): \(operation) failed: \(message) (SQLite code \(code))"
        case .dataDirectory(let path, let reason): "\(path): \(reason)"
        case .newerSchema(let path, let found, let supported):
            "\(path): written by a newer VoiceAlarm (schema \(found), this one knows up to \(supported))"
        case .damaged(let path, let reason):
            "\(path): damaged: \(reason); nothing was changed"
        }
    }
}

extension StoreError {
    /// SQLite's "not a database" (26) and "malformed" (11) codes mean the file is damaged.
    var asDamage: StoreError {
        if case .sqlite(let path, _, let code, let message) = self, code == 26 || code == 11 {
            return .damaged(path: path, reason: message)
        }
        return self
    }

    /// True when the machine is at fault (no space, read-only, an I/O error, a lock held too
    /// long), not the library's content: the same change may work once that is fixed.
    package var isEnvironmental: Bool {
        switch self {
        case .sqlite(_, _, let code, _): [5, 6, 8, 10, 13, 14, 15].contains(code & 0xff)  // BUSY, LOCKED, READONLY, IOERR, FULL, CANTOPEN, PROTOCOL
        case .dataDirectory: true
        case .newerSchema, .damaged: false
        }
    }
}

extension StoreError: ClassifiedError {
    /// The machine's: a database that cannot be written, is damaged, or is newer; one that
    /// cannot grow (`SQLITE_FULL`) is a full disk.
    package var failureKind: FailureKind {
        if case .sqlite(_, _, let code, _) = self, code & 0xff == 13 { return .diskFull }
        return .environment
    }
    package var failureInput: String? {
        switch self {
        case .sqlite(let path, _, _, _), .dataDirectory(let path, _), .newerSchema(let path, _, _), .damaged(let path, _): path
        }
    }
}
