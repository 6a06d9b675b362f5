import Foundation
import VoiceAlarmFiles

/// One daemon per data dir: it holds an exclusive `flock` on `<data-dir>/daemon.lock` while it
/// runs, which also tells other commands whether anything will ring the embedded alarms. The
/// file is opened with `O_NOFOLLOW`: a symbolic link in its place is refused, never written through.
public final class DaemonLock: Sendable {
    private let fd: Int32

    /// Takes the lock, or throws `SchedulerError.daemonRunning` with the holder's pid.
    public init(dataDirectory: String) throws {
        let path = "\(dataDirectory)/daemon.lock"
        do {
            fd = try SystemError.check("open", path: path) { open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        } catch {
            // A read-only, full or foreign data dir: the lock cannot be had, but a daemon may still ring (degraded).
            if [EROFS, EACCES, EPERM, ENOSPC, EDQUOT, EIO].contains(error.code) { throw SchedulerError.lockUnavailable(path: path, reason: error.reason) }
            throw SchedulerError.lock(path: path, reason: error.code == ELOOP ? "is a symbolic link, which is not followed; remove it" : error.reason)
        }
        do {
            try SystemError.check("flock", path: path) { [fd] in flock(fd, LOCK_EX | LOCK_NB) }
        } catch {
            close(fd)
            guard error.code == EWOULDBLOCK else { throw SchedulerError.lock(path: path, reason: error.reason) }
            let pid = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            throw SchedulerError.daemonRunning(pid: pid)
        }
        // The pid is for people reading the file; the lock itself is what counts, so a failed write is harmless.
        _ = ftruncate(fd, 0)
        _ = "\(getpid())\n".withCString { write(fd, $0, strlen($0)) }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }

    /// Whether a daemon holds the lock now.
    public static func isHeld(dataDirectory: String) -> Bool {
        let fd = open("\(dataDirectory)/daemon.lock", O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return false
        }
        return true
    }
}
