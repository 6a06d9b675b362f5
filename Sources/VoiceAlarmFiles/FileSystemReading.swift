import Foundation

/// Reading a whole small file: a record, a lock's owner, a `/proc` entry.
///
/// Foundation's `FileManager.contents(atPath:)`, `Data(contentsOf:)` and
/// `String(contentsOfFile:)` leak 4 KB at every read of a file whose size reads 0 — every
/// `/proc/<pid>/stat` and `/cmdline`, and an empty lock file — as AddressSanitizer shows (ten
/// reads of an empty file, 40,960 bytes; none for a 5-byte file). A `FileHandle` read to its end
/// does not, so every read of VoiceAlarm's goes through here.
extension FileSystem {
    /// The bytes of the file at `path`, read to its end; nil when it cannot be opened or read
    /// (missing, unreadable, a folder).
    package static func contents(_ path: String) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        do {
            return try handle.readToEnd() ?? Data()  // nil: at its end at once, an empty file
        } catch {
            return nil
        }
    }

    /// The text of the file at `path` (UTF-8); nil when it cannot be read or is not UTF-8.
    package static func text(_ path: String) -> String? {
        contents(path).flatMap { String(data: $0, encoding: .utf8) }
    }
}
