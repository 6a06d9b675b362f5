import Foundation

/// A real, nearly full disk for tests: a tmpfs of a few hundred kilobytes mounted on a fresh
/// folder (needs root, as on the build machines), unmounted when the value goes away.
public final class SmallDisk: @unchecked Sendable {
    public let folder: TemporaryDirectory
    public var path: String { folder.path }

    /// Mounts a tmpfs of `bytes` bytes.
    public init(bytes: Int) async throws {
        folder = TemporaryDirectory("small-disk")
        // Its own folder, 0700 (a tmpfs is otherwise 1777, a folder everyone shares).
        try await ProcessRunner.mustRun("mount", ["-t", "tmpfs", "-o", "size=\(bytes),mode=0700", "tmpfs", folder.path])
    }

    /// Detached at once (`umount -l`): a deinit cannot wait for a process, and needs none.
    deinit { unmountLazily(folder.path) }

    /// A path on the disk.
    public func file(_ name: String) -> String { folder.file(name) }
}
