import Foundation
import VoiceAlarmCore

/// Why libarchive could not read or write a tar file: the archive's path, the C function that
/// failed, libarchive's own words and the `errno` it kept (`archive_errno`), read at the failing call.
package enum ArchiveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A read failed: the file is missing, truncated, not a tar file, or damaged.
    case unreadable(path: String, operation: String, message: String, code: Int32)
    /// A write failed (no space, no permission).
    case unwritable(path: String, operation: String, message: String, code: Int32)
    /// An entry holds more data than the reader allows.
    case entryTooLarge(path: String, entry: String, limit: Int64)

    package var description: String {
        switch self {
        case .unreadable(let path, _, let message, _): "\(path): \(Self.readable(message))"
        case .unwritable(let path, _, let message, let code):
            "\(path): \(code != 0 ? String(cString: strerror(code)) : message)"
        case .entryTooLarge(let path, let entry, let limit):
            "\(path): '\(entry)' is larger than the \(limit / 1024 / 1024) MB an entry may be"
        }
    }

    /// The archive file the error is about.
    package var path: String {
        switch self {
        case .unreadable(let path, _, _, _), .unwritable(let path, _, _, _), .entryTooLarge(let path, _, _): path
        }
    }

    /// libarchive's message, with the two a person most often meets said plainly.
    private static func readable(_ message: String) -> String {
        if message.localizedCaseInsensitiveContains("truncated") { return "the archive is truncated (\(message))" }
        if message.localizedCaseInsensitiveContains("unrecognized archive format") { return "not a tar archive (\(message))" }
        return "the archive cannot be read (\(message))"
    }
}

extension ArchiveError: ClassifiedError {
    /// A file the person gave that cannot be used (exit 1, 400 on the page); a write that the
    /// machine refused is the environment's.
    package var failureKind: FailureKind {
        switch self {
        case .unreadable(_, _, _, let code): code == ENOENT ? .notFound : .invalid
        case .unwritable(_, _, _, let code): code == ENOSPC ? .diskFull : .environment
        case .entryTooLarge: .invalid
        }
    }
    package var failureInput: String? { path }
}
