import Foundation

/// What `stat` says of a file that tells whether it changed: size, modification time and inode.
///
/// Used as a fast path only: a stamp that matches lets a recorded result (a content hash, a
/// check) be reused; one that differs always leads to reading the bytes again.
///
/// File times come from the outside world (a backup restored with bogus times, `touch -d
/// 2300-01-01`): a time that nanoseconds in 64 bits cannot hold (before 1677 or after 2262) makes
/// an *inexact* stamp, which `matches` nothing (not even itself, recorded and read back), so
/// such a file always counts as changed. Nothing a file's metadata says can trap.
package struct FileStamp: Codable, Equatable, Hashable, Sendable {
    package var size: Int
    /// Modification time in nanoseconds since 1970 (exact, so stamps compare equal only when unchanged);
    /// clamped to the representable range when `isExact` is false.
    package var modified: Int64
    package var inode: UInt64
    /// Whether `modified` is the file's time exactly. A stamp read back from a record says it is
    /// (the flag is not kept); what vouches is the stamp just read, which `matches` requires exact.
    package var isExact: Bool = true

    private enum CodingKeys: String, CodingKey { case size, modified, inode }

    /// The modification time in seconds since 1970.
    package var modifiedSeconds: Double { Double(modified / 1_000_000_000) + Double(modified % 1_000_000_000) / 1e9 }

    package init(size: Int, modified: Int64, inode: UInt64, isExact: Bool = true) {
        self.size = size
        self.modified = modified
        self.inode = inode
        self.isExact = isExact
    }

    /// The stamp of the file at `path` (following links).
    /// - Throws: `SystemError` from `stat` (no such file, no permission).
    package init(path: String) throws(SystemError) {
        var info = stat()
        try SystemError.check("stat", path: path) { stat(path, &info) }
        let (nanoseconds, exact) = Self.nanoseconds(seconds: Int64(info.st_mtim.tv_sec), nanoseconds: Int64(info.st_mtim.tv_nsec))
        self.init(size: Int(info.st_size), modified: nanoseconds, inode: UInt64(info.st_ino), isExact: exact)
    }

    /// `seconds` × 10⁹ + `nanoseconds`, and whether that fits in 64 bits; clamped when it does not.
    static func nanoseconds(seconds: Int64, nanoseconds: Int64) -> (Int64, exact: Bool) {
        let (scaled, overflowScaling) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, overflowAdding) = scaled.addingReportingOverflow(nanoseconds)
        guard !overflowScaling, !overflowAdding else { return (seconds < 0 ? .min : .max, false) }
        return (sum, true)
    }

    /// Whether this stamp, just read, vouches that the file is the one `recorded` describes: both
    /// exact and equal. A file whose time cannot be represented never matches, so it is read again.
    package func matches(_ recorded: FileStamp?) -> Bool {
        guard let recorded, isExact, recorded.isExact else { return false }
        return self == recorded
    }
}
