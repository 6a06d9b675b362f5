import Foundation

/// What the file system says of a path without opening it: its kind, its status, whether it is
/// a folder the user may write. The questions beside `FileSystem`'s writes; nothing here changes
/// anything but `setPermissions`.
extension FileSystem {
    /// What is at a path: a regular file, a folder, a link, or one of the special files that
    /// must never be read as a recording (reading a FIFO blocks; a device never ends).
    package enum Kind: Equatable, Sendable, CustomStringConvertible {
        case missing, regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, other

        /// How a person names it, with its article: "a FIFO", "a character device".
        package var description: String {
            switch self {
            case .missing: "nothing"
            case .regular: "a regular file"
            case .directory: "a folder"
            case .symbolicLink: "a symbolic link"
            case .fifo: "a FIFO"
            case .characterDevice: "a character device"
            case .blockDevice: "a block device"
            case .socket: "a socket"
            case .other: "a special file"
            }
        }

        init(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFREG: self = .regular
            case S_IFDIR: self = .directory
            case S_IFLNK: self = .symbolicLink
            case S_IFIFO: self = .fifo
            case S_IFCHR: self = .characterDevice
            case S_IFBLK: self = .blockDevice
            case S_IFSOCK: self = .socket
            default: self = .other
            }
        }
    }

    /// What is at `path`: by default the path itself (`lstat`, a final link is not followed),
    /// or what a final link points to when `followingLinks` (`stat`). Nothing is opened, so
    /// asking about a FIFO never blocks.
    package static func kind(of path: String, followingLinks: Bool = false) -> Kind {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return .missing }
        return Kind(mode: info.st_mode)
    }

    /// What `stat` says of a path that decides who may use it: its kind, its permission bits,
    /// its owner and its size.
    package struct Status: Equatable, Sendable {
        package var kind: Kind
        /// The permission bits (`0o755`), without the file type.
        package var permissions: Int
        /// The owner's user id.
        package var owner: UInt32
        package var size: Int
    }

    /// The status of `path`, following links (`stat`); nothing is opened.
    /// - Throws: `SystemError` from `stat` (no such file, no permission on a parent folder).
    package static func status(of path: String) throws(SystemError) -> Status {
        var info = stat()
        try SystemError.check("stat", path: path) { stat(path, &info) }
        return Status(
            kind: Kind(mode: info.st_mode), permissions: Int(info.st_mode & 0o7777),
            owner: UInt32(info.st_uid), size: Int(info.st_size))
    }

    /// The user this process acts as (the effective user id), who owns what it creates.
    package static var currentUser: UInt32 { UInt32(geteuid()) }

    /// Gives `path` the permission bits `permissions`. The corresponding C function is `chmod`.
    /// - Throws: `SystemError` (not the owner, a read-only file system).
    package static func setPermissions(_ path: String, _ permissions: Int) throws(SystemError) {
        try SystemError.check("chmod", path: path) { chmod(path, mode_t(permissions)) }
    }

    /// `path` made absolute: `~` expanded, a relative path joined to the current folder as it is
    /// (`..` kept, so a path through a link means what the person typed).
    package static func absolutePath(_ path: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        return expanded.hasPrefix("/") ? expanded : FileManager.default.currentDirectoryPath + "/" + expanded
    }

    /// Whether `path` is a folder (following links).
    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether the current user may create and remove files in the folder `path`.
    package static func isWritableDirectory(_ path: String) -> Bool {
        access(path, W_OK | X_OK) == 0
    }
}
