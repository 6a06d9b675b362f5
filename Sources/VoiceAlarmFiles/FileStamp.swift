import Foundation

/// What `stat` says of a file that tells whether it changed: size, modification time and inode.
///
/// Used as a fast path only: a stamp that matches lets a recorded result (a content hash, a
/// check) be reused; one that differs always leads to reading the bytes again.
public struct FileStamp: Codable, Equatable, Hashable, Sendable {
    public var size: Int
    /// Seconds since 1970, with nanoseconds.
    public var modified: Double
    public var inode: UInt64

    public init(size: Int, modified: Double, inode: UInt64) {
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
                  modified: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9,
                  inode: UInt64(info.st_ino))
    }
}
