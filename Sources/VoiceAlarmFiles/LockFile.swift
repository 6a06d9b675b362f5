import Foundation

/// An exclusive advisory lock (`flock`) on a file, held as long as the value lives, with the
/// holder's pid written in the file for people and for the message another process shows. The
/// lock is the kernel's: it goes with the process (a killed holder leaves no stale lock), whatever
/// the file says. The file is opened with `O_NOFOLLOW` (a symbolic link in its place is refused,
/// never written through) and created 0600. The corresponding C functions are `open`, `flock`,
/// `ftruncate` and `write`.
///
/// ```swift
/// let lock = try LockFile(acquiring: "\(dataDirectory)/daemon.lock")   // throws .held(by: 4242) while another holds it
/// LockFile.isHeld("\(dataDirectory)/daemon.lock")                      // true while `lock` lives
/// ```
package final class LockFile: Sendable {
    /// Why the lock was not taken.
    package enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// Another process holds it; its pid as the file records it (nil when the file names none).
        case held(by: Int32?)
        /// A system call failed: the file cannot be opened (`ELOOP` for a link, `EROFS`…) or locked.
        case system(SystemError)

        package var description: String {
            switch self {
            case .held(let pid): "\(pid.map { "process \($0)" } ?? "another process") holds the lock"
            case .system(let error): "\(error)"
            }
        }
    }

    /// The lock file.
    package var path: String { file.path }
    /// Why this process's pid is not in the file, when it is not (a full disk, a quota). The lock
    /// is held all the same: the pid only informs, so a holder is never turned away for it; the
    /// file is then empty or names an earlier holder, and the caller decides whether to say so.
    package let pidNotRecorded: SystemError?
    private let file: FileDescriptor

    /// Takes the lock on `path` without waiting, creating the file when it is missing, then
    /// replaces what the file says with this process's pid.
    /// - Throws: `Problem.held` while another process (or another `LockFile` of this one) holds
    ///   it; `Problem.system` when the file cannot be opened or locked.
    package init(acquiring path: String) throws(Problem) {
        do {
            file = try FileDescriptor(opening: path, .readWrite, options: [.create, .noFollow])
        } catch { throw .system(error) }
        do {
            try SystemError.check("flock", path: path) { [file] in flock(file.number, LOCK_EX | LOCK_NB) }
        } catch {
            guard error.code == EWOULDBLOCK else { throw .system(error) }
            throw .held(by: Self.holder(of: path))
        }
        // Cut first, so a failed write leaves no earlier holder's pid behind when it can.
        do {
            try file.truncate()
            try file.write("\(getpid())\n")
            pidNotRecorded = nil
        } catch {
            pidNotRecorded = error
        }
    }

    /// Releases the lock (closing the file would too; unlocking first says so explicitly).
    deinit { flock(file.number, LOCK_UN) }

    /// Whether some process holds the lock on `path` now: the file is locked and released again
    /// when it is free. False when there is no file, or it cannot be opened (a link is not
    /// followed): no holder could have locked it either.
    package static func isHeld(_ path: String) -> Bool {
        guard let file = try? FileDescriptor(opening: path, .readOnly, options: [.noFollow]) else { return false }
        // flock works on a descriptor opened for reading too: nothing here writes.
        if flock(file.number, LOCK_EX | LOCK_NB) == 0 {
            flock(file.number, LOCK_UN)
            return false
        }
        return true
    }

    /// The pid the file at `path` records, or nil when it records none (missing, empty, not a number).
    package static func holder(of path: String) -> Int32? {
        guard let data = FileSystem.contents(path) else { return nil }
        return Int32(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
