import Foundation

/// The library's folders: private (0700) and this process's user's own, judged through one
/// descriptor so that what is checked is what is changed.
///
/// A folder is opened (`open` with `O_DIRECTORY`) and judged by what that descriptor is
/// (`fstat`), never by its path again, and a loose mode is only ever tightened on it (`fchmod`).
/// Another user's folder, a folder everyone shares (the sticky bit, as `/tmp`), and a new
/// folder that would be made inside another user's are refused and left as they are: root in a
/// person's library would leave files that person's alarms cannot read. The corresponding C
/// functions are `mkdir`, `lstat`, `open`, `fstat` and `fchmod`.
///
/// ```swift
/// let loosened = try PrivateFolder.make("\(dataDirectory)/clips", links: .ownOnly)   // 0o755 when it was tightened
/// try PrivateFolder.check(requestedSoundsDirectory, links: .followed)                   // nothing made or changed
/// ```
package enum PrivateFolder {
    /// Which symbolic links in the folder's place are followed.
    package enum Links: Sendable {
        /// Any: a folder the person named may be reached through links (an app container's).
        case followed
        /// Only a link this user made, to a folder of this user's (the library's own `clips/`
        /// and `Sounds/` moved to another disk); a link someone else planted is refused, and
        /// its target never touched.
        case ownOnly
    }

    /// Why a folder cannot be one of the library's private folders.
    package enum Problem: Error, Equatable, Sendable {
        /// Something else is there: a file, a device.
        case notAFolder(FileSystem.Kind)
        /// A symbolic link that is not followed (another user's).
        case symbolicLink(owner: UInt32)
        /// The folder belongs to another user.
        case belongsTo(owner: UInt32, permissions: Int)
        /// A folder everyone shares (the sticky bit, as `/tmp`): never made private.
        case shared(permissions: Int)
        /// The folder does not exist, and would be made inside `parent`, another user's folder.
        case insideFolderOf(owner: UInt32, parent: String)
        /// A system call failed (no permission on a parent, a read-only file system).
        case system(SystemError)
    }

    /// Makes `path` a private folder of this process's user (mode 0700), creating it and its
    /// missing parents when needed.
    /// - Returns: the permission bits it had when they were loosened and are now 0700, else nil.
    /// - Throws: `Problem`.
    @discardableResult
    package static func make(_ path: String, links: Links) throws(Problem) -> Int? {
        if FileSystem.kind(of: path) == .missing {
            try checkMissing(path)
            do { try FileSystem.makeDirectory(path, permissions: 0o700) } catch { throw .system(error) }
        }
        return try withOpened(path, links: links) { fd, permissions throws(Problem) -> Int? in
            guard permissions & 0o077 != 0 else { return nil }
            if fchmod(fd, 0o700) != 0 {
                let failure = SystemError.capture("chmod", path: path)
                // A read-only mount cannot be changed by anyone here: the caller's writable check speaks for it.
                guard failure.code == EROFS else { throw .system(failure) }
                return nil
            }
            return permissions
        }
    }

    /// Whether `make` would accept `path`, changing nothing: no folder is made, no mode changed.
    /// - Returns: the permission bits `make` would tighten, else nil.
    /// - Throws: `Problem`.
    @discardableResult
    package static func check(_ path: String, links: Links) throws(Problem) -> Int? {
        if FileSystem.kind(of: path) == .missing {
            try checkMissing(path)
            return nil
        }
        return try withOpened(path, links: links) { _, permissions throws(Problem) -> Int? in
            permissions & 0o077 != 0 ? permissions : nil
        }
    }

    /// Whether two paths name one folder or file (the same device and inode), however they are
    /// spelled: a trailing slash, a doubled one, a link (`/bin/x` and `/usr/bin/x` on a merged `/usr`).
    package static func same(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return a == b }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// A folder that does not exist yet may be made only where this user (or root, as `/tmp`) owns the folder above.
    private static func checkMissing(_ path: String) throws(Problem) {
        guard let parent = nearestExistingAncestor(of: path), let status = try? FileSystem.status(of: parent) else { return }
        if status.owner != FileSystem.currentUser, status.owner != 0 { throw .insideFolderOf(owner: status.owner, parent: parent) }
    }

    /// Opens the folder at `path` as `links` allows, checks it is this user's own and not shared,
    /// and hands `body` the descriptor and its permission bits.
    private static func withOpened<Result>(
        _ path: String, links: Links,
        _ body: (Int32, Int) throws(Problem) -> Result
    ) throws(Problem) -> Result {
        let me = FileSystem.currentUser
        var linkInfo = stat()
        if lstat(path, &linkInfo) == 0, linkInfo.st_mode & S_IFMT == S_IFLNK, links == .ownOnly, UInt32(linkInfo.st_uid) != me {
            throw .symbolicLink(owner: UInt32(linkInfo.st_uid))
        }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 {
            let failure = SystemError.capture("open", path: path)
            if failure.code == ENOTDIR { throw .notAFolder(FileSystem.kind(of: path, followingLinks: true)) }
            throw .system(failure)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system(SystemError.capture("fstat", path: path)) }
        let permissions = Int(info.st_mode & 0o7777)
        guard UInt32(info.st_uid) == me else { throw .belongsTo(owner: UInt32(info.st_uid), permissions: permissions) }
        guard permissions & Int(S_ISVTX) == 0 else { throw .shared(permissions: permissions) }
        return try body(fd, permissions)
    }

    /// The deepest folder above `path` that exists (`/` at the top).
    static func nearestExistingAncestor(of path: String) -> String? {
        var current = (path as NSString).deletingLastPathComponent
        while !current.isEmpty {
            if FileSystem.kind(of: current, followingLinks: true) != .missing { return current }
            if current == "/" { return nil }
            current = (current as NSString).deletingLastPathComponent
        }
        return nil
    }
}
