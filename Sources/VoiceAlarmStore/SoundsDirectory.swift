import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// The folder of alarm sounds: one `<alarm-uuid>.<ext>` per voice alarm, mode 0700 for the
/// folder and 0600 for its files (a voice is personal). `--sounds-dir` may point it at an app
/// container's `Library/Sounds`.
package struct SoundsDirectory: Sendable {
    package let path: String

    /// Opens (creating, mode 0700) the folder, which must be this user's.
    /// - Parameters:
    ///   - chosen: a folder the person named (`--sounds-dir`): it may be reached through any
    ///     link, and a loosened mode is tightened only with a word to `announce`. The library's
    ///     own `Sounds/` (false) is followed only through a link of this user's.
    /// - Throws: `StoreError.dataDirectory` for a folder that cannot be made, is not a folder,
    ///   is another user's link where none is followed, or belongs to another user.
    package init(path: String, chosen: Bool = true, announce: ((_ path: String, _ previousMode: UInt32) -> Void)? = nil) throws {
        self.path = path
        try LibraryStore.makePrivateDirectory(path, links: chosen ? .followed : .ownOnly, announce: chosen ? (announce ?? { _, _ in }) : nil)
        StaleFiles.sweep(path)
    }

    /// Whether `init(path:chosen:)` would accept the folder, making and changing nothing (a
    /// `--sounds-dir` is checked before the command runs, and taken on only once it succeeded).
    /// - Throws: `StoreError.dataDirectory`, as `init` would.
    package static func check(path: String, chosen: Bool = true) throws {
        try LibraryStore.checkPrivateDirectory(path, links: chosen ? .followed : .ownOnly)
    }

    /// The file name an alarm's ringtone has in `format`.
    package static func fileName(for alarm: UUID, format: RingtoneFormat) -> String {
        "\(alarm.uuidString.lowercased()).\(format.fileExtension)"
    }

    package func path(of fileName: String) -> String { "\(path)/\(fileName)" }

    /// Makes a just-written file private (0600).
    /// - Throws: `SystemError` from `chmod`. The file is whole and rings as it is, so a builder
    ///   keeps it and warns that others may read it rather than give the alarm up.
    package func makePrivate(_ fileName: String) throws(SystemError) { try FileSystem.setPermissions(path(of: fileName), 0o600) }

    /// The names of the files in the folder, hidden ones included.
    package func fileNames() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] }

    /// Removes one file of the folder; one already gone is not an error.
    /// - Throws: `SystemError` when it stays (a read-only or foreign folder): the caller says so,
    ///   as a ringtone left behind takes room and may hold an old recording.
    package func remove(_ fileName: String) throws(SystemError) { try FileSystem.remove(ifPresent: path(of: fileName)) }

    /// Removes every file of `alarm` except `keeping` (a voice switched off, an alarm removed,
    /// a format changed). Hidden temporary files of an interrupted build go too, unless
    /// `temporaries` is false (another process may be writing one now).
    /// - Returns: the removals that failed, one per file that stays; every file is tried. Not
    ///   discardable: a ringtone that cannot be removed is reported, never silently kept.
    package func removeFiles(of alarm: UUID, keeping: String? = nil, temporaries: Bool = true) -> [SystemError] {
        let id = alarm.uuidString.lowercased()
        var failures: [SystemError] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] where name != keeping {
            guard name.hasPrefix(id + ".") || (temporaries && name.hasPrefix("." + id + ".")) else { continue }
            do { try remove(name) } catch { failures.append(error) }
        }
        return failures
    }
}
