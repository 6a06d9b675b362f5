import Foundation

/// The project's file-system seam: writing a file so that no reader ever sees half of it,
/// making folders with a mode, and asking what a path is. Every temporary-then-rename and every
/// `mkdir -p` of VoiceAlarm goes through here.
///
/// ```swift
/// try FileSystem.makeDirectory("\(dataDirectory)/Sounds", permissions: 0o700)
/// try FileSystem.atomicWrite(to: "\(dataDirectory)/Sounds/\(id).m4a") { temporary in
///     try encoder.write(samples, to: temporary)     // checked here, before it replaces anything
/// }
/// ```
package enum FileSystem {
    /// Writes `path` through a hidden temporary file beside it: `write` fills the temporary file
    /// (registered with `TemporaryFiles`, so Ctrl-C removes it), which is then given
    /// `permissions` (when set), flushed to disk (`fsync`) and renamed over `path`, and the
    /// folder is flushed too. When `write` throws, or any step fails, `path` is left as it was
    /// and the temporary file is gone.
    /// - Parameter durable: flush to disk before the rename (ringtones, clips, units); false for
    ///   small records rewritten often (a backup, a last-look time), which stay whole-or-nothing
    ///   but may be the previous version after a power cut.
    /// - Returns: what `write` returned.
    /// - Throws: what `write` threw, or `SystemError` for the flush or the rename.
    @discardableResult
    package static func atomicWrite<Result>(
        to path: String, permissions: Int? = nil, durable: Bool = true,
        _ write: (_ temporaryPath: String) throws -> Result
    ) throws -> Result {
        let temporary = temporaryPath(beside: path)
        TemporaryFiles.register(temporary)
        defer {
            unlink(temporary)
            TemporaryFiles.unregister(temporary)
        }
        let result = try write(temporary)
        try flush(temporary, permissions: permissions, durable: durable)
        try SystemError.check("rename", path: path) { rename(temporary, path) }
        if durable { flushFolder(of: path) }
        return result
    }

    /// Creates `path` from a temporary file that `write` fills, only when nothing is there yet:
    /// the temporary file is flushed and then linked (never renamed) to `path`, so a file made
    /// by another process at the same moment is never replaced. A half-made file never appears
    /// under `path`.
    /// - Returns: false when `path` already existed (another process made it first).
    /// - Throws: what `write` threw, or `SystemError` for the flush or the link.
    @discardableResult
    package static func atomicCreate(at path: String, permissions: Int? = nil, _ write: (_ temporaryPath: String) throws -> Void) throws -> Bool {
        let temporary = temporaryPath(beside: path)
        TemporaryFiles.register(temporary)
        defer {
            for leftover in [temporary, temporary + "-wal", temporary + "-shm", temporary + "-journal"] { unlink(leftover) }
            TemporaryFiles.unregister(temporary)
        }
        try write(temporary)
        try flush(temporary, permissions: permissions, durable: true)
        if link(temporary, path) != 0 {
            let failure = SystemError.capture("link", path: path)
            if failure.code == EEXIST { return false }
            throw failure
        }
        flushFolder(of: path)
        return true
    }

    /// Moves a damaged file (and SQLite's `-wal`/`-shm` beside it) out of the way, to
    /// `PATH.damaged-YYYYMMDD-HHMMSS`, keeping it for inspection.
    /// - Returns: the new path.
    package static func moveAside(_ path: String, now: Date = Date()) throws(SystemError) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let aside = "\(path).damaged-\(formatter.string(from: now))"
        try SystemError.check("rename", path: path) { rename(path, aside) }
        for suffix in ["-wal", "-shm"] where kind(of: path + suffix) != .missing { rename(path + suffix, aside + suffix) }
        return aside
    }

    /// Writes `data` to `path` atomically (see `atomicWrite(to:permissions:_:)`).
    package static func atomicWrite(_ data: Data, to path: String, permissions: Int? = nil, durable: Bool = true) throws {
        try atomicWrite(to: path, permissions: permissions, durable: durable) { temporary in
            let fd = try SystemError.check("open", path: path) { open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666) }
            defer { close(fd) }
            try data.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    offset += try SystemError.check("write", path: path) {
                        Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                    }
                }
            }
        }
    }

    /// Copies the file at `source` to `path` atomically.
    package static func atomicCopy(_ source: String, to path: String, permissions: Int? = nil) throws {
        try atomicWrite(to: path, permissions: permissions) { temporary in
            do { try FileManager.default.copyItem(atPath: source, toPath: temporary) } catch {
                throw SystemError(foundation: error, operation: "copy", path: path)
            }
        }
    }

    /// A hidden name in `path`'s folder (`.NAME.OWNER.TOKEN.partial`, OWNER being this
    /// process's `ProcessIdentity`), so a rename from it is atomic and a sweep can tell whether
    /// the command writing it still runs (`removeAbandonedTemporaries`).
    package static func temporaryPath(beside path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let token = UUID().uuidString.prefix(8).lowercased()
        let name = ".\(url.lastPathComponent).\(ProcessIdentity.current.text).\(token)\(temporarySuffix)"
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// The suffix of every temporary file `atomicWrite` makes, by which sweeps recognise them.
    package static let temporarySuffix = ".partial"

    /// How old a temporary file that does not name its owner must be before a sweep takes it
    /// for abandoned: far longer than any write takes (a render takes seconds).
    package static let abandonedTemporaryAge: TimeInterval = 600

    /// Removes the hidden temporary files in `folder` that a killed command left behind:
    /// `atomicWrite`'s `.NAME.OWNER.TOKEN.partial` files whose owner no longer runs, and
    /// older `.NAME.TOKEN.partial` files (which do not name their owner) untouched for `age` seconds.
    /// A file of a command that still runs is never removed. In a folder other programs share
    /// (systemd's unit folder), `prefix` keeps the sweep to the names this program writes there.
    package static func removeAbandonedTemporaries(
        in folder: String, named prefix: String = "", olderThan age: TimeInterval = abandonedTemporaryAge,
        now: Date = Date()
    ) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where name.hasPrefix(".\(prefix)") && name.hasSuffix(temporarySuffix) {
            let path = "\(folder)/\(name)"
            guard kind(of: path) == .regular else { continue }
            let parts = name.dropLast(temporarySuffix.count).split(separator: ".")
            if parts.count >= 3, let owner = ProcessIdentity(text: parts[parts.count - 2]) {
                if !owner.isRunning { unlink(path) }
                continue
            }
            let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
            if let modified, now.timeIntervalSince(modified) > age { unlink(path) }
        }
    }

    /// Removes the hidden temporary files in `folder` that `atomicWrite` made for any of `names`
    /// (`.NAME.OWNER.TOKEN.partial`), whoever wrote them: for a writer that knows it alone
    /// writes those names (one shard of a batch, whose earlier run on another machine was killed
    /// — a process there cannot be asked whether it runs).
    /// - Returns: the names of the files removed.
    @discardableResult
    package static func removeTemporaries(in folder: String, of names: Set<String>) -> [String] {
        var removed: [String] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where entry.hasPrefix(".") && entry.hasSuffix(temporarySuffix) {
            var parts = entry.dropFirst().dropLast(temporarySuffix.count).split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count >= 3 else { continue }
            parts.removeLast(2)
            guard names.contains(parts.joined(separator: ".")), kind(of: "\(folder)/\(entry)") == .regular else { continue }
            unlink("\(folder)/\(entry)")
            removed.append(entry)
        }
        return removed
    }

    /// Creates `path` and any missing parents (`mkdir -p`), each new level with `permissions`
    /// (less what the umask removes);
    /// a relative path stays relative. An existing folder is accepted as it is.
    /// - Throws: `SystemError` naming `path` (`ENOTDIR` when it, or a parent, is a file).
    package static func makeDirectory(_ path: String, permissions: Int) throws(SystemError) {
        if isDirectory(path) { return }
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/\(component)"
            if mkdir(current, mode_t(permissions)) != 0 {
                let failure = SystemError.capture("mkdir", path: path)
                guard failure.code == EEXIST else { throw failure }
            }
        }
        guard isDirectory(path) else { throw SystemError(operation: "mkdir", path: path, code: ENOTDIR) }
    }

    /// Removes a file; a file already gone is not an error, and neither is any other failure:
    /// for leftovers whose removal is a courtesy. A file whose removal matters goes through
    /// `remove(ifPresent:)`.
    package static func remove(_ path: String) {
        try? remove(ifPresent: path)
    }

    /// Removes the file (or link: it is not followed) at `path`; nothing there is success. The
    /// corresponding C function is `unlink`.
    /// - Throws: `SystemError` for any other failure, with `errno` as `unlink` left it (`EACCES`,
    ///   `EROFS`, `EISDIR`/`EPERM` for a folder…).
    package static func remove(ifPresent path: String) throws(SystemError) {
        guard unlink(path) != 0 else { return }
        let failure = SystemError.capture("unlink", path: path)
        if failure.code == ENOENT { return }
        // A read-only file system answers EROFS before it looks: nothing there is success all the same.
        var info = stat()
        if lstat(path, &info) != 0, errno == ENOENT { return }
        throw failure
    }

    /// Creates an empty file at `path` with `permissions` (less the umask), only when nothing is
    /// there, a link included (`O_CREAT | O_EXCL`): for a file a library then opens by name and
    /// must find private from the start (SQLite keeps the mode of the file it is given).
    /// - Throws: `SystemError` from `open` (`EEXIST` when something is there).
    package static func createEmptyFile(at path: String, permissions: Int) throws(SystemError) {
        _ = try FileDescriptor(opening: path, .readWrite, options: [.create, .exclusive], permissions: permissions)
    }

    /// Moves the file at `source` to `path`, replacing what is there, in one `rename` when both
    /// are on one file system; across file systems (`EXDEV`) it is copied to `path` atomically
    /// and the source removed. Either way `path` is whole or untouched. The corresponding C
    /// function is `rename`.
    /// - Throws: `SystemError` naming `path`.
    package static func move(_ source: String, to path: String, permissions: Int? = nil) throws {
        if rename(source, path) == 0 {
            if let permissions { try setPermissions(path, permissions) }
            return
        }
        let failure = SystemError.capture("rename", path: path)
        guard failure.code == EXDEV else { throw failure }
        try atomicCopy(source, to: path, permissions: permissions)
        remove(source)
    }

    /// Removes a folder and everything in it; links inside are removed, never followed. A folder
    /// already gone is not an error.
    package static func removeTree(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Gives the temporary file its mode and flushes it to disk before it is renamed into place.
    private static func flush(_ path: String, permissions: Int?, durable: Bool) throws {
        let fd = try SystemError.check("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) }
        defer { close(fd) }
        if let permissions { try SystemError.check("chmod", path: path) { fchmod(fd, mode_t(permissions)) } }
        guard durable else { return }
        // Some shared file systems (FUSE, 9p) cannot flush (EINVAL, ENOTSUP); the rename is still atomic there.
        while fsync(fd) != 0 {
            let failure = SystemError.capture("fsync", path: path)
            if failure.code == EINTR { continue }  // a signal (a child process ending) interrupted the flush
            guard failure.code == EINVAL || failure.code == ENOTSUP else { throw failure }
            break
        }
    }

    /// Flushes the folder's entry for a renamed file; a folder that cannot be opened is left to the system.
    private static func flushFolder(of path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let fd = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
