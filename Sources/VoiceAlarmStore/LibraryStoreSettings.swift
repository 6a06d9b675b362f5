import Foundation
import VoiceAlarmCore

/// The library's remembered settings (render settings, the playback device, the ramp, the
/// folders, the backend): one `LibrarySettings` value, a row per key, written like every change.
extension LibraryStore {
    /// The settings remembered now; rows under keys this version does not know are left out.
    package func settings() throws -> LibrarySettings {
        var settings = LibrarySettings()
        for row in try db.query("SELECT key, value FROM settings") {
            guard let name = row["key"]?.text, let key = LibrarySettings.Key(rawValue: name), let text = row["value"]?.text else { continue }
            settings[stored: key] = text
        }
        return settings
    }

    /// Changes the remembered settings: `change` edits those remembered now, and only the keys
    /// it changed are written (a key it set to nil is forgotten, so its default applies again).
    package func changeSettings(_ change: (inout LibrarySettings) throws -> Void) throws {
        let before = try settings()
        var after = before
        try change(&after)
        try changing {
            for key in LibrarySettings.Key.allCases where before[stored: key] != after[stored: key] {
                if let text = after[stored: key] {
                    try db.execute(
                        "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                        [.text(key.rawValue), .text(text)])
                } else {
                    try db.execute("DELETE FROM settings WHERE key = ?", [.text(key.rawValue)])
                }
            }
        }
    }
}
