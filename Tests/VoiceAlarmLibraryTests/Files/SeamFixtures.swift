import Foundation
import TestSupport

/// A folder that is read-only for everyone, root included (permission bits do not stop root): a
/// read-only bind mount of a fresh folder, detached when the value goes away.
final class ReadOnlyFolder: @unchecked Sendable {
    let folder: TemporaryDirectory
    var path: String { folder.path }

    /// Mounts the folder read-only once `prepare` has put in it what the test needs.
    init(_ label: String, prepare: (TemporaryDirectory) throws -> Void = { _ in }) async throws {
        folder = TemporaryDirectory(label)
        try prepare(folder)
        try await ProcessRunner.mustRun("/usr/bin/env", ["mount", "--bind", folder.path, folder.path])
        try await ProcessRunner.mustRun("/usr/bin/env", ["mount", "-o", "remount,bind,ro", folder.path])
    }

    /// Detached at once (`umount -l`): a deinit cannot wait for a process.
    deinit { unmountLazily(folder.path) }

    func file(_ name: String) -> String { folder.file(name) }
}

/// Whether this process has a descriptor open on `path` (`/proc/self/fd`).
func hasOpenDescriptor(on path: String) -> Bool {
    let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return descriptors.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path }
}

/// A symbolic link at `link` to a file of someone else's at `target`, holding `text`.
func plantLink(_ link: String, to target: String, holding text: String = "theirs\n") throws {
    try text.write(toFile: target, atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
}
