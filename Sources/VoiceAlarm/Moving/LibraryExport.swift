import Foundation
import VoiceAlarmArchive
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmStore

/// `voicealarm export FILE.tar` (and the page's "Download a backup"): the library in one tar
/// file for another machine — every recording's FLAC copy as stored, the playlists, the
/// manifesto, the alarms (ids, on/off, skips, voice switch, snooze, skip-holidays), the settings
/// that belong to the person and the holidays — with a manifest of each file's length and
/// SHA-256 (`ExportManifest`). Never paired devices, tokens, keys or certificates: nothing of
/// `<data-dir>/web` and no device row is read.
///
/// The archive is written to a temporary file beside `path` and renamed into place: a failure
/// (a full disk, Ctrl-C) leaves no half archive, and an older one at `path` whole.
///
/// ```swift
/// let exported = try LibraryExport.write(service, to: "/media/usb/alarms.tar")
/// ```
package enum LibraryExport {
    /// The settings an archive carries: how ringtones are made and how rings rise. The playback
    /// device, the sounds and unit folders and the scheduler backend belong to the machine, and
    /// stay with it.
    package static let portableSettings: [LibrarySettings.Key] = [.format, .codec, .gap, .trimSilence, .normalize, .targetLUFS, .ramp]

    /// What an export wrote.
    package struct Exported: Sendable {
        /// The archive, as an absolute path.
        package var path: String
        package var bytes: Int64
        package var formatVersion: Int
        package var clips: Int, playlists: Int, alarms: Int, holidays: Int
        /// The settings carried, by name.
        package var settings: [String]
    }

    /// Writes the archive of `service`'s library to `path`.
    /// - Throws: `ArchiveError` when the archive cannot be written, `SystemError` for the rename,
    ///   `AudioError` for a recording that cannot be read.
    package static func write(_ service: AlarmService, to path: String, now: Date = Date()) throws -> Exported {
        let store = service.store
        var records = try LibraryBackup(of: store)
        var settings = LibrarySettings()
        for key in portableSettings { settings[stored: key] = records.settings[stored: key] }
        records.settings = settings
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let library = try encoder.encode(records)

        var files = [ExportManifest.File(path: ExportManifest.libraryFileName, bytes: Int64(library.count), sha256: ContentHash.sha256(library))]
        for clip in records.clips {
            let source = "\(store.clipsDirectory)/\(clip.fileName)"
            let status = try FileSystem.status(of: source)
            files.append(.init(path: "\(ExportManifest.clipsFolder)/\(clip.fileName)", bytes: Int64(status.size), sha256: try ContentHash.sha256(file: source)))
        }
        let manifest = ExportManifest(created: ISO8601DateFormatter().string(from: now), files: files)
        let manifestData = try encoder.encode(manifest)

        let folder = ExportManifest.folder
        let bytes: Int64 = try FileSystem.atomicWrite(to: path, permissions: 0o600) { temporary in
            let writer = try TarWriter(creating: temporary, modified: now)
            try writer.addDirectory(folder)
            try writer.addData(manifestData, as: "\(folder)/\(ExportManifest.fileName)")
            try writer.addData(library, as: "\(folder)/\(ExportManifest.libraryFileName)")
            try writer.addDirectory("\(folder)/\(ExportManifest.clipsFolder)")
            for (clip, file) in zip(records.clips, files.dropFirst()) {
                let written = try writer.addFile("\(store.clipsDirectory)/\(clip.fileName)", as: "\(folder)/\(file.path)")
                guard written == file.bytes else {
                    throw ArchiveError.unreadable(
                        path: "\(store.clipsDirectory)/\(clip.fileName)", operation: "read", message: "it changed while it was exported", code: EIO)
                }
            }
            try writer.finish()
            return Int64(try FileSystem.status(of: temporary).size)
        }
        return Exported(
            path: FileSystem.absolutePath(path), bytes: bytes, formatVersion: ExportManifest.currentVersion, clips: records.clips.count,
            playlists: records.playlists.count, alarms: records.alarms.count, holidays: records.holidays?.count ?? 0,
            settings: settings.storedKeys.map(\.rawValue))
    }
}
