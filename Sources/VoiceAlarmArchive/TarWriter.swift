internal import CArchive
import Foundation
import VoiceAlarmFiles

/// Writes a tar file (POSIX pax, restricted: plain ustar headers unless a name needs more) with
/// libarchive: folders, files copied from disk and bytes given, each private to its owner
/// (folders 0700, files 0600) and dated `modified`. It writes to the path it is given, whole
/// or not at all only as its caller arranges: `voicealarm export` writes a temporary file and
/// renames it into place (`FileSystem.atomicWrite`). The handle is freed in `deinit`.
///
/// ```swift
/// let writer = try TarWriter(creating: temporary, modified: Date())
/// try writer.addDirectory("voicealarm-export")
/// try writer.addFile("/data/clips/1.flac", as: "voicealarm-export/clips/1.flac")
/// try writer.finish()
/// ```
package final class TarWriter {
    private let handle: OpaquePointer
    private let path: String
    private let modified: time_t
    private var finished = false

    /// Opens `path` for writing (created or truncated). The corresponding C functions are
    /// `archive_write_new`, `archive_write_set_format_pax_restricted`, `archive_write_open_filename`.
    /// - Throws: `ArchiveError.unwritable` (the folder is missing or read-only).
    package init(creating path: String, modified: Date) throws(ArchiveError) {
        guard let handle = archive_write_new() else {
            throw .unwritable(path: path, operation: "archive_write_new", message: "out of memory", code: ENOMEM)
        }
        self.handle = handle
        self.path = path
        self.modified = time_t(modified.timeIntervalSince1970)
        try check(archive_write_set_format_pax_restricted(handle), "archive_write_set_format_pax_restricted")
        try check(archive_write_add_filter_none(handle), "archive_write_add_filter_none")
        try check(archive_write_open_filename(handle, path), "archive_write_open_filename")
    }

    deinit { archive_write_free(handle) }

    /// Adds a folder entry.
    package func addDirectory(_ name: String) throws(ArchiveError) {
        try writeHeader(name, type: va_archive_type_directory(), permissions: 0o700, size: 0)
    }

    /// Adds `data` as the file `name`.
    package func addData(_ data: Data, as name: String) throws(ArchiveError) {
        try writeHeader(name, type: va_archive_type_regular(), permissions: 0o600, size: Int64(data.count))
        try writeData(data)
    }

    /// Adds the regular file at `source` as `name`, read in chunks (never whole into memory).
    /// The corresponding C functions are `archive_write_header` and `archive_write_data`.
    /// - Returns: the bytes written.
    /// - Throws: `ArchiveError.unreadable` naming `source` when it cannot be read, or changed
    ///   length while it was read; `.unwritable` when the archive cannot be written.
    @discardableResult
    package func addFile(_ source: String, as name: String) throws(ArchiveError) -> Int64 {
        let file: FileDescriptor, size: Int64
        do {
            file = try FileDescriptor(opening: source, .readOnly, options: [.noFollow])
            size = Int64(try file.status().size)
        } catch {
            throw .unreadable(path: source, operation: error.operation, message: error.reason, code: error.code)
        }
        try writeHeader(name, type: va_archive_type_regular(), permissions: 0o600, size: size)
        var written: Int64 = 0
        while true {
            let chunk: Data
            do { chunk = try file.read(limit: 1 << 20 - 1) } catch {
                throw .unreadable(path: source, operation: error.operation, message: error.reason, code: error.code)
            }
            if chunk.isEmpty { break }
            written += Int64(chunk.count)
            guard written <= size else { break }
            try writeData(chunk)
        }
        guard written == size else {
            throw .unreadable(path: source, operation: "read", message: "it changed while it was read", code: EIO)
        }
        return written
    }

    /// Writes the end of the archive and closes the file. The corresponding C function is
    /// `archive_write_close`.
    package func finish() throws(ArchiveError) {
        guard !finished else { return }
        finished = true
        try check(archive_write_close(handle), "archive_write_close")
    }

    private func writeHeader(_ name: String, type: UInt32, permissions: UInt32, size: Int64) throws(ArchiveError) {
        precondition(!finished, "an entry added after finish()")
        guard let entry = archive_entry_new() else {
            throw .unwritable(path: path, operation: "archive_entry_new", message: "out of memory", code: ENOMEM)
        }
        defer { archive_entry_free(entry) }
        archive_entry_set_pathname_utf8(entry, name)
        archive_entry_set_filetype(entry, type)
        archive_entry_set_perm(entry, mode_t(permissions))
        archive_entry_set_size(entry, size)
        archive_entry_set_mtime(entry, modified, 0)
        try check(archive_write_header(handle, entry), "archive_write_header")
    }

    private func writeData(_ data: Data) throws(ArchiveError) {
        let written = data.withUnsafeBytes { bytes in archive_write_data(handle, bytes.baseAddress, bytes.count) }
        if written < 0 || written != data.count {
            let (message, code) = ArchiveStatus.failure(handle, operation: "archive_write_data")
            throw .unwritable(path: path, operation: "archive_write_data", message: message, code: code)
        }
    }

    private func check(_ status: Int32, _ operation: String) throws(ArchiveError) {
        try ArchiveStatus.check(status, handle, operation: operation) { .unwritable(path: path, operation: operation, message: $0, code: $1) }
    }
}
