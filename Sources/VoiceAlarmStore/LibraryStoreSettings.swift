import Foundation

/// The library's remembered settings (render settings, the playback device, the ramp, the
/// sounds folder): plain keys and values, written like every change.
extension LibraryStore {
    public func settings() throws -> [String: String] {
        var result: [String: String] = [:]
        for row in try db.query("SELECT key, value FROM settings") {
            if let key = row["key"]?.text, let value = row["value"]?.text { result[key] = value }
        }
        return result
    }

    public func setSetting(_ key: String, _ value: String) throws {
        try changing {
            try db.execute("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                           [.text(key), .text(value)])
        }
    }

    /// Forgets a setting (its default applies again).
    public func removeSetting(_ key: String) throws {
        try changing { try db.execute("DELETE FROM settings WHERE key = ?", [.text(key)]) }
    }
}
