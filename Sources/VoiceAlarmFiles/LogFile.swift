import Foundation

/// A file that lines are only ever added to the end of: opened for each append with `O_APPEND`
/// (lines of several processes at once never overwrite each other), created 0600, and never
/// through a symbolic link (`O_NOFOLLOW`: a link in its place is refused, so the log cannot be
/// pointed at another file). Nothing is kept open between appends. The corresponding C functions
/// are `open`, `write` and `close`.
///
/// ```swift
/// try LogFile(path: "\(dataDirectory)/events.log").append("2027-01-04T07:00:00+01:00 ringing alarm …\n")
/// ```
package struct LogFile: Sendable {
    package let path: String

    package init(path: String) { self.path = path }

    /// Adds `text` at the end of the file, creating it when it is missing.
    /// - Throws: `SystemError` from `open` (`ELOOP` for a link, `EROFS`, `EACCES`…) or `write`
    ///   (`ENOSPC`…; part of the text may then be in the file).
    package func append(_ text: String) throws(SystemError) {
        let file = try FileDescriptor(opening: path, .writeOnly, options: [.create, .append, .noFollow], permissions: 0o600)
        try file.write(text)
    }

    /// Moves the file to `PATH.1` (replacing an older one) once it is larger than `limit` bytes,
    /// so a log that is appended to for years stays bounded: the current file and the one before.
    /// - Returns: whether it was moved.
    /// - Throws: `SystemError` from `rename`.
    @discardableResult
    package func rotate(over limit: Int) throws(SystemError) -> Bool {
        guard let stamp = try? FileStamp(path: path), stamp.size > limit else { return false }
        _ = try SystemError.check("rename", path: path) { rename(path, path + ".1") }
        return true
    }
}
