import Foundation
import VoiceAlarmCore

/// Why `voicealarm import` imported nothing: each names the archive (and the entry, when one is
/// at fault) and says why, in one line. Every refusal comes before the library is touched.
package enum ImportRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// More entries than `ExportManifest.Limits.entries`.
    case tooManyEntries(archive: String)
    /// More data than `ExportManifest.Limits.totalBytes` in all.
    case tooLarge(archive: String)
    /// An entry whose path is absolute, leaves the folder or is outside it.
    case unsafeEntry(archive: String, entry: String, reason: String)
    /// A link, a device, a FIFO…: an archive of a library holds files and folders only.
    case notAFile(archive: String, entry: String, kind: String)
    /// The same path twice.
    case duplicateEntry(archive: String, entry: String)
    /// No `manifest.json` in the folder.
    case noManifest(archive: String)
    /// A manifest (or `library.json`) that is no JSON of the expected shape.
    case badManifest(archive: String, entry: String, reason: String)
    /// A format or version this build does not read.
    case unknownFormat(archive: String, format: String, version: Int?)
    /// A file the manifest names that the archive lacks.
    case missingFile(archive: String, entry: String)
    /// A file in the archive that the manifest does not name.
    case unlistedFile(archive: String, entry: String)
    /// A file whose length or SHA-256 is not the manifest's.
    case checksumMismatch(archive: String, entry: String, what: String)
    /// Records that do not make a library (a playlist of unknown clips, an alarm on no target…).
    case inconsistent(archive: String, reason: String)
    /// The library already has alarms, and `--merge` was not given.
    case libraryHasAlarms(archive: String, count: Int)
    /// What the archive holds clashes with the library (ids, names, alarm rules).
    case clashes(archive: String, [String])

    package var description: String {
        let folder = ExportManifest.folder
        switch self {
        case .tooManyEntries(let archive): return "\(archive): more than \(ExportManifest.Limits.entries) entries; not an archive of a library"
        case .tooLarge(let archive):
            return "\(archive): more than \(ExportManifest.Limits.totalBytes / 1024 / 1024 / 1024) GB of data; not an archive of a library"
        case .unsafeEntry(let archive, let entry, let reason): return "\(archive): entry '\(entry)' is refused: \(reason)"
        case .notAFile(let archive, let entry, let kind): return "\(archive): entry '\(entry)' is \(kind); an archive of a library holds only files and folders"
        case .duplicateEntry(let archive, let entry): return "\(archive): entry '\(entry)' appears twice"
        case .noManifest(let archive): return "\(archive): no \(folder)/\(ExportManifest.fileName); not an archive of a library VoiceAlarm exported"
        case .badManifest(let archive, let entry, let reason): return "\(archive): \(folder)/\(entry) cannot be read: \(reason)"
        case .unknownFormat(let archive, let format, let version):
            if format != ExportManifest.formatName { return "\(archive): the manifest's format is '\(format)', not '\(ExportManifest.formatName)'" }
            return
                "\(archive): format version \(version.map(String.init) ?? "(none)") is not one this voicealarm reads (it reads \(ExportManifest.currentVersion)); use a newer voicealarm"
        case .missingFile(let archive, let entry): return "\(archive): \(folder)/\(entry) is named in the manifest but missing from the archive"
        case .unlistedFile(let archive, let entry): return "\(archive): entry '\(entry)' is not named in the manifest"
        case .checksumMismatch(let archive, let entry, let what):
            return "\(archive): \(folder)/\(entry) does not match the manifest (its \(what) differs): the archive is damaged"
        case .inconsistent(let archive, let reason): return "\(archive): \(reason)"
        case .libraryHasAlarms(let archive, let count):
            return "\(archive): this library already has \(count) alarm\(count == 1 ? "" : "s"); import into an empty library, or merge it into this one"
        case .clashes(let archive, let clashes):
            let shown = clashes.prefix(5).joined(separator: "; ")
            return "\(archive): nothing imported: \(shown)" + (clashes.count > 5 ? " (and \(clashes.count - 5) more)" : "")
        }
    }

    /// The archive the refusal is about.
    package var archive: String {
        switch self {
        case .tooManyEntries(let archive), .tooLarge(let archive), .unsafeEntry(let archive, _, _), .notAFile(let archive, _, _),
            .duplicateEntry(let archive, _), .noManifest(let archive), .badManifest(let archive, _, _), .unknownFormat(let archive, _, _),
            .missingFile(let archive, _), .unlistedFile(let archive, _), .checksumMismatch(let archive, _, _), .inconsistent(let archive, _),
            .libraryHasAlarms(let archive, _), .clashes(let archive, _):
            archive
        }
    }
}

extension ImportRefusal: ClassifiedError {
    /// An archive that cannot be used (exit 1, 400); one that clashes with the library (409).
    package var failureKind: FailureKind {
        switch self {
        case .libraryHasAlarms, .clashes: .conflict
        default: .invalid
        }
    }
    package var failureInput: String? { archive }
}
