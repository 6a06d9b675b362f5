internal import CArchive
import Foundation
import VoiceAlarmFiles

/// Reads a tar file (ustar, pax, GNU) entry by entry with libarchive, without following or
/// making anything: each header is handed over as a `TarEntry` value for the caller to judge,
/// and an entry's data is copied only into a new file the caller names, up to a limit. No
/// compression is read. The handle is freed in `deinit`.
///
/// ```swift
/// let reader = try TarReader(reading: "backup.tar")
/// while let entry = try reader.next() {
///     if entry.kind == .regular { try reader.extract(to: "/tmp/staging/\(n)", limit: 1 << 27) }
/// }
/// ```
package final class TarReader {
    private let handle: OpaquePointer
    private let path: String

    /// Opens `path`. The corresponding C functions are `archive_read_new`,
    /// `archive_read_support_format_tar` and `archive_read_open_filename`.
    /// - Throws: `ArchiveError.unreadable` (missing, unreadable, not a tar file).
    package init(reading path: String) throws(ArchiveError) {
        guard let handle = archive_read_new() else {
            throw .unreadable(path: path, operation: "archive_read_new", message: "out of memory", code: ENOMEM)
        }
        self.handle = handle
        self.path = path
        try check(archive_read_support_format_tar(handle), "archive_read_support_format_tar")
        try check(archive_read_open_filename(handle, path, 65_536), "archive_read_open_filename")
    }

    deinit { archive_read_free(handle) }

    /// The next entry's header, or nil at the end of the archive. The corresponding C function
    /// is `archive_read_next_header`.
    /// - Throws: `ArchiveError.unreadable` for a damaged or truncated header.
    package func next() throws(ArchiveError) -> TarEntry? {
        var entry: OpaquePointer?
        let status = archive_read_next_header(handle, &entry)
        if status == ARCHIVE_EOF { return nil }
        try check(status, "archive_read_next_header")
        guard let entry else { return nil }
        let name = archive_entry_pathname_utf8(entry) ?? archive_entry_pathname(entry)
        let kind: TarEntry.Kind
        if archive_entry_hardlink(entry) != nil {
            kind = .hardLink
        } else {
            switch archive_entry_filetype(entry) {
            case va_archive_type_regular(): kind = .regular
            case va_archive_type_directory(): kind = .directory
            case va_archive_type_symlink(): kind = .symbolicLink
            case va_archive_type_character_device(), va_archive_type_block_device(): kind = .device
            case va_archive_type_fifo(): kind = .fifo
            case va_archive_type_socket(): kind = .socket
            default: kind = .other
            }
        }
        let size = archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : 0
        return TarEntry(path: name.map { String(cString: $0) } ?? "", kind: kind, size: size)
    }

    /// Copies the current entry's data into a new file at `destination` (0600; refused if it
    /// exists), at most `limit` bytes: an entry longer than that stops the copy and throws,
    /// whatever its header said. The corresponding C function is `archive_read_data`.
    /// - Returns: the bytes copied.
    /// - Throws: `ArchiveError.entryTooLarge`; `.unreadable` for damaged or truncated data;
    ///   `.unwritable` naming `destination` when it cannot be written.
    @discardableResult
    package func extract(_ entry: TarEntry, to destination: String, limit: Int64) throws(ArchiveError) -> Int64 {
        let file: FileDescriptor
        do { file = try FileDescriptor(opening: destination, .writeOnly, options: [.create, .exclusive, .noFollow]) } catch {
            throw .unwritable(path: destination, operation: error.operation, message: error.reason, code: error.code)
        }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var total: Int64 = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in archive_read_data(handle, bytes.baseAddress, bytes.count) }
            if count == 0 { break }
            if count < 0 {
                let (message, code) = ArchiveStatus.failure(handle, operation: "archive_read_data")
                throw .unreadable(path: path, operation: "archive_read_data", message: message, code: code)
            }
            total += Int64(count)
            guard total <= limit else { throw .entryTooLarge(path: path, entry: entry.path, limit: limit) }
            do { try file.write(Data(buffer[0..<count])) } catch {
                throw .unwritable(path: destination, operation: error.operation, message: error.reason, code: error.code)
            }
        }
        return total
    }

    private func check(_ status: Int32, _ operation: String) throws(ArchiveError) {
        try ArchiveStatus.check(status, handle, operation: operation) { .unreadable(path: path, operation: operation, message: $0, code: $1) }
    }
}
