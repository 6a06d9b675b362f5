import VoiceAlarm

/// An archive imported, or what it would import (`import --json`, `--dry-run`):
/// `{"archive", "dryRun", "merged", "formatVersion", "clips": [id], "keptClips": [id],
/// "playlists": [name], "manifesto", "alarms": [id], "calendars": [name], "holidays",
/// "settings": [name], "rebuild": {"rebuilt", "defaultTone", "deferred", "shortfalls"}}`.
package struct ImportJSON: Encodable {
    package var archive: String
    package var dryRun: Bool
    package var merged: Bool
    package var formatVersion: Int
    package var clips: [String], keptClips: [String]
    package var playlists: [String]
    package var manifesto: Bool
    package var alarms: [String]
    package var calendars: [String]
    package var holidays: Int
    package var settings: [String]
    package var rebuild: RebuildJSON

    package init(_ imported: LibraryImport.Imported) {
        archive = imported.archive
        dryRun = imported.dryRun
        merged = imported.merged
        formatVersion = imported.formatVersion
        clips = imported.clips.map { $0.uuidString.lowercased() }
        keptClips = imported.keptClips.map { $0.uuidString.lowercased() }
        playlists = imported.playlists
        manifesto = imported.manifesto
        alarms = imported.alarms.map { $0.uuidString.lowercased() }
        calendars = imported.calendars
        holidays = imported.holidays
        settings = imported.settings
        rebuild = RebuildJSON(imported.rebuild)
    }
}
