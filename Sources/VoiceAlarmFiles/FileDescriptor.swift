import Foundation

/// An open file, closed when the last reference to it goes away: the one owner of a descriptor
/// number, so it is never closed twice nor leaked on an early `throw`. Every descriptor is opened
/// with `O_CLOEXEC`, so a ring or a child process started meanwhile never inherits it (a child
/// holding the daemon's lock file would keep the lock after the daemon died). The corresponding C
/// functions are `open`, `read`, `write`, `ftruncate`, `fstat` and `close`.
///
/// ```swift
/// let file = try FileDescriptor(opening: path, .writeOnly, options: [.create, .append, .noFollow])
/// try file.write("one line\n")   // every byte, or a `SystemError` naming `path`
/// ```
///
/// Sendable: it holds only the number and the path, both constant, and the number is closed only
/// in `deinit`, when no one else can be using it; the kernel serialises the calls made on it.
package final class FileDescriptor: Sendable {
    /// What the descriptor may do.
    package enum Access: Sendable {
        case readOnly, writeOnly, readWrite
    }

    /// How `init(opening:_:options:permissions:)` treats the path.
    package struct Options: OptionSet, Sendable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }

        /// Create the file when it is missing (`O_CREAT`), with the given permissions less the umask.
        package static let create = Options(rawValue: 1 << 0)
        /// With `create`: fail with `EEXIST` when anything is at the path, a link included (`O_EXCL`).
        package static let exclusive = Options(rawValue: 1 << 1)
        /// Every write goes to the end, whoever else writes (`O_APPEND`).
        package static let append = Options(rawValue: 1 << 2)
        /// Empty the file on opening (`O_TRUNC`).
        package static let truncate = Options(rawValue: 1 << 3)
        /// Refuse a symbolic link at the path with `ELOOP` instead of following it (`O_NOFOLLOW`):
        /// nothing is ever written through a link someone put in a file's place.
        package static let noFollow = Options(rawValue: 1 << 4)

        var flags: Int32 {
            var flags: Int32 = 0
            if contains(.create) { flags |= O_CREAT }
            if contains(.exclusive) { flags |= O_EXCL }
            if contains(.append) { flags |= O_APPEND }
            if contains(.truncate) { flags |= O_TRUNC }
            if contains(.noFollow) { flags |= O_NOFOLLOW }
            return flags
        }
    }

    /// The path it was opened by, named in every error.
    package let path: String
    /// The descriptor number; only this module's calls see it.
    let number: Int32

    /// Opens `path`. The corresponding C function is `open` (with `O_CLOEXEC`).
    /// - Parameter permissions: the mode of a file `create` makes (less the umask).
    /// - Throws: `SystemError` from `open`: `ENOENT`, `EACCES`, `EROFS`, `ELOOP` for a link
    ///   refused by `noFollow`, `EEXIST` for `exclusive`…
    package init(opening path: String, _ access: Access, options: Options = [], permissions: Int = 0o600) throws(SystemError) {
        let accessFlags: Int32 =
            switch access {
            case .readOnly: O_RDONLY
            case .writeOnly: O_WRONLY
            case .readWrite: O_RDWR
            }
        self.path = path
        number = try SystemError.check("open", path: path) { open(path, accessFlags | options.flags | O_CLOEXEC, mode_t(permissions)) }
    }

    /// Closes the descriptor. A failing `close` is not retried nor reported: on Linux the
    /// descriptor is gone whatever it returns, and what was written is already in the kernel's
    /// hands (a write that must reach the disk goes through `FileSystem.atomicWrite`, which flushes).
    deinit { close(number) }

    /// Writes every byte of `data`, in as many `write` calls as the kernel needs (a short write is
    /// continued, `EINTR` retried).
    /// - Throws: `SystemError` from `write` (`ENOSPC`, `EDQUOT`, `EIO`…); some bytes may have been
    ///   written before it.
    package func write(_ data: Data) throws(SystemError) {
        let path = path, number = number
        let failure: SystemError? = data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                do throws(SystemError) {
                    offset += try SystemError.check("write", path: path) { Glibc.write(number, bytes.baseAddress! + offset, bytes.count - offset) }
                } catch { return error }
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Writes `text` as UTF-8 (see `write(_:)` for data).
    package func write(_ text: String) throws(SystemError) { try write(Data(text.utf8)) }

    /// Reads from the current offset to the end of the file, in as many `read` calls as the
    /// kernel needs (`EINTR` retried), stopping after `limit` bytes: a caller that expects a small
    /// file (a key, a certificate) never reads a huge one whole into memory.
    /// - Returns: at most `limit + 1` bytes, so a caller can tell that the file holds more.
    /// - Throws: `SystemError` from `read` (`EISDIR`, `EIO`…).
    package func read(limit: Int) throws(SystemError) -> Data {
        precondition(limit >= 0, "a read of at most \(limit) bytes")
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let path = path, number = number
        while data.count <= limit {
            let wanted = min(chunk.count, limit + 1 - data.count)
            let result: Result<Int, SystemError> = chunk.withUnsafeMutableBytes { bytes in
                do throws(SystemError) {
                    return .success(try SystemError.check("read", path: path) { Glibc.read(number, bytes.baseAddress!, wanted) })
                } catch { return .failure(error) }
            }
            let count = try result.get()
            if count == 0 { break }
            data.append(contentsOf: chunk.prefix(count))
        }
        return data
    }

    /// Cuts the file to `length` bytes (0: empty). The corresponding C function is `ftruncate`.
    /// - Throws: `SystemError` (`EINVAL` for a descriptor not open for writing, `EIO`).
    package func truncate(to length: Int = 0) throws(SystemError) {
        try SystemError.check("ftruncate", path: path) { ftruncate(number, off_t(length)) }
    }

    /// What the open file is, judged through the descriptor (never the path again). The
    /// corresponding C function is `fstat`.
    package func status() throws(SystemError) -> FileSystem.Status {
        var info = stat()
        try SystemError.check("fstat", path: path) { fstat(number, &info) }
        return FileSystem.Status(
            kind: FileSystem.Kind(mode: info.st_mode), permissions: Int(info.st_mode & 0o7777),
            owner: UInt32(info.st_uid), size: Int(info.st_size))
    }
}
