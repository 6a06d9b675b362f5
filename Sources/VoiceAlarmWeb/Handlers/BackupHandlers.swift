import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmHTTP

/// `GET /api/backup`: the Machine view's "Download a backup".
enum BackupHandlers {
    /// The library as `voicealarm export` writes it (`LibraryExport`: recordings, playlists,
    /// alarms, settings, holidays; never a device, token, key or certificate), as an attachment
    /// named after the day. Written into a private temporary folder, answered, and removed.
    static func backup(_ context: WebContext) throws -> HTTPResponse {
        try context.withLibrary { service in
            let folder = try TemporaryFiles.makePrivateFolder(prefix: "voicealarm-backup")
            TemporaryFiles.registerFolder(folder)
            defer {
                FileSystem.removeTree(folder)
                TemporaryFiles.unregisterFolder(folder)
            }
            let now = context.configuration.now()
            let name = "voicealarm-backup-\(LocalDate(now, in: service.timeZone)).tar"
            let exported = try LibraryExport.write(service, to: "\(folder)/\(name)", now: now)
            guard let data = FileSystem.contents(exported.path) else {
                throw SystemError(operation: "read", path: exported.path, code: EIO)
            }
            return HTTPResponse(
                status: 200,
                headers: [
                    ("Content-Type", "application/x-tar"), ("Content-Disposition", "attachment; filename=\"\(name)\""),
                    ("Cache-Control", "no-store"),
                ],
                body: .data(data))
        }
    }
}
