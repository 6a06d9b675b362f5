import VoiceAlarm

/// A library written to an archive (`export --json`):
/// `{"archive", "bytes", "formatVersion", "clips", "playlists", "alarms", "holidays", "settings"}`
/// — counts, and the settings carried by name.
package struct ExportJSON: Encodable {
    package var archive: String
    package var bytes: Int64
    package var formatVersion: Int
    package var clips: Int, playlists: Int, alarms: Int, holidays: Int
    package var settings: [String]

    package init(_ exported: LibraryExport.Exported) {
        archive = exported.path
        bytes = exported.bytes
        formatVersion = exported.formatVersion
        clips = exported.clips
        playlists = exported.playlists
        alarms = exported.alarms
        holidays = exported.holidays
        settings = exported.settings
    }
}
