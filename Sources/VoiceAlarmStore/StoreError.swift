/// Why the library's store could not do what was asked, with what a user needs to act on it.
public enum StoreError: Error, Equatable, CustomStringConvertible, Sendable {
    /// An SQLite call failed: the database file, the statement's purpose, SQLite's code and text.
    case sqlite(path: String, operation: String, code: Int32, message: String)
    /// The data folder cannot be created or written.
    case dataDirectory(path: String, reason: String)
    /// The database was written by a newer VoiceAlarm.
    case newerSchema(path: String, found: Int, supported: Int)

    public var description: String {
        switch self {
        case .sqlite(let path, let operation, let code, let message): "\(path): \(operation) failed: \(message) (SQLite code \(code))"
        case .dataDirectory(let path, let reason): "\(path): \(reason)"
        case .newerSchema(let path, let found, let supported):
            "\(path): written by a newer VoiceAlarm (schema \(found), this one knows up to \(supported))"
        }
    }
}
