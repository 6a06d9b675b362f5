import Foundation
import Glibc

/// Waits for files to appear or be written in one folder (Linux `inotify`), so a process can
/// answer a request left there at once instead of looking every few seconds. Owns its
/// descriptor, closed in `deinit`.
///
/// ```swift
/// let watch = try FolderWatch("\(dataDir)/test-ring")
/// if watch.wait(seconds: 5) { answer() }     // true: something in it changed
/// ```
package final class FolderWatch: Sendable {
    private let descriptor: Int32
    /// The folder watched.
    package let path: String

    /// Watches `path` for files written, moved in or removed.
    /// - Throws: `SystemError` from `inotify_init1` or `inotify_add_watch` (no such folder, too many watches).
    package init(_ path: String) throws(SystemError) {
        self.path = path
        let descriptor = try SystemError.check("inotify_init1", path: path) { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_CREATE)
        do {
            _ = try SystemError.check("inotify_add_watch", path: path) { inotify_add_watch(descriptor, path, mask) }
        } catch {
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Waits up to `seconds` for a change in the folder; true when one came (every event waiting
    /// is read, so the next wait waits for a new one). An interrupted wait returns false.
    package func wait(seconds: Double) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, Int32(max(0, min(seconds, 86_400)) * 1000)) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        return true
    }
}
