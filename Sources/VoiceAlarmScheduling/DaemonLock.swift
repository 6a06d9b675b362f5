import Foundation
import VoiceAlarmFiles

/// One daemon per data dir: it holds an exclusive `flock` on `<data-dir>/daemon.lock` while it
/// runs (a `LockFile`), which also tells other commands whether anything will ring the embedded
/// alarms. The file is opened with `O_NOFOLLOW`: a symbolic link in its place is refused, never
/// written through.
package final class DaemonLock: Sendable {
    private let file: LockFile

    /// Why the daemon's pid could not be written into the lock file, when it could not. The lock
    /// is held all the same — it is what counts, and a daemon is never kept from ringing for the
    /// pid — but another daemon refused meanwhile names no pid (or an earlier one), so the daemon
    /// says so (`DaemonNotice.pidNotRecorded`).
    package var pidNotRecorded: SystemError? { file.pidNotRecorded }

    /// Takes the lock, or throws `SchedulerError.daemonRunning` with the holder's pid.
    /// - Throws: `SchedulerError.lockUnavailable` where the machine cannot give a lock (a
    ///   read-only, full or foreign data dir: a daemon may still ring, degraded);
    ///   `SchedulerError.lock` for a link in the lock's place or another failure.
    package init(dataDirectory: String) throws {
        let path = Self.path(in: dataDirectory)
        do {
            file = try LockFile(acquiring: path)
        } catch .held(let pid) {
            throw SchedulerError.daemonRunning(pid: pid.map(String.init) ?? "?")
        } catch .system(let error) {
            if error.operation == "open", [EROFS, EACCES, EPERM, ENOSPC, EDQUOT, EIO].contains(error.code) {
                throw SchedulerError.lockUnavailable(path: path, reason: error.reason)
            }
            throw SchedulerError.lock(path: path, reason: error.code == ELOOP ? "is a symbolic link, which is not followed; remove it" : error.reason)
        }
    }

    /// Whether a daemon holds the lock now.
    package static func isHeld(dataDirectory: String) -> Bool { LockFile.isHeld(path(in: dataDirectory)) }

    static func path(in dataDirectory: String) -> String { "\(dataDirectory)/daemon.lock" }
}
