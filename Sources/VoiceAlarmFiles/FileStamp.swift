import Foundation

/// What `stat` says of a file that tells whether it changed: size, modification time and inode.
///
/// Used as a fast path only: a stamp that matches lets a recorded result (a content hash, a
/// check) be reused; one that differs always leads to reading the bytes again.
public struct FileStamp: Codable, Equatable, Hashable, Sendable {
    public var size: Int
    /// Modification time in nanoseconds since 1970 (exact, so stamps compare equal only when unchanged).
    public var modified: Int64
    public var inode: UInt64

    /// The modification time in seconds since 1970.
    public var modifiedSeconds: Double { Double(modified / 1_000_000_000) + Double(modified % 1_000_000_000) / 1e9 }

    public init(size: Int, modified: Int64, inode: UInt64) {
        self.size = size
        self.modified = modified
        self.inode = inode
    }

    /// The stamp of the file at `path` (following links).
    /// - Throws: `SystemError` from `stat` (no such file, no permission).
    public init(path: String) throws(SystemError) {
        var info = stat()
        try SystemError.check("stat", path: path) { stat(path, &info) }
        self.init(size: Int(info.st_size),
                  modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                  inode: UInt64(info.st_ino))
    }
}
