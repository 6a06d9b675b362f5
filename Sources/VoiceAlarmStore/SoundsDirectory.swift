import Foundation
import VoiceAlarmCore

/// The folder of alarm sounds: one `<alarm-uuid>.<ext>` per voice alarm, mode 0700 for the
/// folder and 0600 for its files (a voice is personal). `--sounds-dir` may point it at an app
/// container's `Library/Sounds`.
public struct SoundsDirectory: Sendable {
    public let path: String

    /// Opens (creating, mode 0700) the folder.
    public init(path: String) throws {
        self.path = path
        try LibraryStore.makePrivateDirectory(path)
        StaleFiles.sweep(path)
    }

    /// The file name an alarm's ringtone has in `format`.
    public static func fileName(for alarm: UUID, format: RingtoneFormat) -> String {
        "\(alarm.uuidString.lowercased()).\(format.fileExtension)"
    }

    public func path(of fileName: String) -> String { "\(path)/\(fileName)" }

    /// Makes a just-written file private.
    public func makePrivate(_ fileName: String) { chmod(path(of: fileName), 0o600) }

    /// Removes every file of `alarm` except `keeping` (a voice switched off, an alarm removed,
    /// a format changed). Hidden temporary files of an interrupted build go too.
    public func removeFiles(of alarm: UUID, keeping: String? = nil) {
        let id = alarm.uuidString.lowercased()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] where name != keeping {
            if name.hasPrefix(id + ".") || name.hasPrefix("." + id + ".") { unlink(path(of: name)) }
        }
    }
}
