import Foundation

/// Temporary files and folders being written right now, so that an interrupted command (Ctrl-C,
/// SIGTERM) can remove them before it exits instead of leaving half-written files, or a batch's
/// decode cache, beside the user's.
package enum TemporaryFiles {
    private static let paths = Locked<(files: Set<String>, folders: Set<String>)>(([], []))

    /// Notes that `path` is being written and must not outlive the command.
    package static func register(_ path: String) { paths.withLock { _ = $0.files.insert(path) } }

    /// Notes that `path` was renamed into place or removed.
    package static func unregister(_ path: String) { paths.withLock { _ = $0.files.remove(path) } }

    /// Notes that the folder `path`, and everything put in it, must not outlive the command.
    package static func registerFolder(_ path: String) { paths.withLock { _ = $0.folders.insert(path) } }

    /// Notes that the folder `path` was removed (or is to be kept after all).
    package static func unregisterFolder(_ path: String) { paths.withLock { _ = $0.folders.remove(path) } }

    /// Removes every file still being written, and every registered folder with what it holds
    /// (only those under `prefix`, when given; the others stay registered).
    /// Called from a signal handler's queue.
    package static func removeAll(under prefix: String? = nil) {
        let pending = paths.withLock { current -> (files: Set<String>, folders: Set<String>) in
            guard let prefix else {
                defer { current = ([], []) }
                return current
            }
            let taken = (files: current.files.filter { $0.hasPrefix(prefix) }, folders: current.folders.filter { $0.hasPrefix(prefix) })
            current.files.subtract(taken.files)
            current.folders.subtract(taken.folders)
            return taken
        }
        for path in pending.files { unlink(path) }
        for folder in pending.folders { FileSystem.removeTree(folder) }
    }

    /// A new folder only this user can enter, under `base` when given, else `$TMPDIR` (else
    /// `/tmp`), named `PREFIX-XXXXXX` by `mkdtemp`: for files that must not outlive a command (a
    /// preview, an archive being checked).
    package static func makePrivateFolder(prefix: String, in base: String? = nil) throws(SystemError) -> String {
        let base = base ?? ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        guard made else { throw SystemError.capture("mkdtemp", path: base) }
        // mkdtemp filled in the X's of our own UTF-8 path: the bytes up to its NUL decode whole.
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
