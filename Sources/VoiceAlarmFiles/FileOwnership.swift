import Foundation

/// Who owns what: the questions a library asks before it writes anywhere (nothing is written
/// into another user's library) or trusts a file (a voice file this user cannot read cannot ring).
extension FileSystem {
    /// A user's login name (`getpwuid_r`), or nil when the system has none for `uid`.
    package static func userName(_ uid: UInt32) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid_t(uid), &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else { return nil }
        return String(cString: name)
    }

    /// Whether the folder `path` (following links) belongs to this process's user: nothing is
    /// written into a library by anyone but its owner, root included (a file root makes there
    /// is one the owner's alarms cannot read or append to). True when it cannot be told.
    package static func isMine(_ path: String) -> Bool {
        guard let status = try? status(of: path) else { return true }
        return status.owner == currentUser
    }

    /// Whether this process's user may read the file at `path` (`access` with `R_OK`).
    package static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }
}
