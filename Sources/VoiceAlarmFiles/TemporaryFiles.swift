import Foundation
import Synchronization

/// Temporary files being written right now, so that an interrupted command (Ctrl-C, SIGTERM)
/// can remove them before it exits instead of leaving half-written files beside the user's.
public enum TemporaryFiles {
    private static let paths = Mutex<Set<String>>([])

    /// Notes that `path` is being written and must not outlive the command.
    public static func register(_ path: String) { paths.withLock { _ = $0.insert(path) } }

    /// Notes that `path` was renamed into place or removed.
    public static func unregister(_ path: String) { paths.withLock { _ = $0.remove(path) } }

    /// Removes every file still being written. Called from a signal handler's queue.
    public static func removeAll() {
        let pending = paths.withLock { current -> Set<String> in
            defer { current.removeAll() }
            return current
        }
        for path in pending { unlink(path) }
    }
}
