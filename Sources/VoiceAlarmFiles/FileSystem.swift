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
public enum FileSystem {
    /// Writes `path` through a hidden temporary file beside it: `write` fills the temporary file
    /// (registered with `TemporaryFiles`, so Ctrl-C removes it), which is then given
    /// `permissions` (when set), flushed to disk (`fsync`) and renamed over `path`, and the
    /// folder is flushed too. When `write` throws, or any step fails, `path` is left as it was
    /// and the temporary file is gone.
    /// - Returns: what `write` returned.
    /// - Throws: what `write` threw, or `SystemError` for the flush or the rename.
    @discardableResult
    public static func atomicWrite<Result>(to path: String, permissions: Int? = nil,
                                           _ write: (_ temporaryPath: String) throws -> Result) throws -> Result {
        let temporary = temporaryPath(beside: path)
        TemporaryFiles.register(temporary)
        defer {
            unlink(temporary)
            TemporaryFiles.unregister(temporary)
        }
        let result = try write(temporary)
        try flush(temporary, permissions: permissions)
        try SystemError.check("rename", path: path) { rename(temporary, path) }
        flushFolder(of: path)
        return result
    }

    /// Creates `path` from a temporary file that `write` fills, only when nothing is there yet:
    /// the temporary file is flushed and then linked (never renamed) to `path`, so a file made
    /// by another process at the same moment is never replaced. A half-made file never appears
    /// under `path`.
    /// - Returns: false when `path` already existed (another process made it first).
    /// - Throws: what `write` threw, or `SystemError` for the flush or the link.
    @discardableResult
    public static func atomicCreate(at path: String, permissions: Int? = nil, _ write: (_ temporaryPath: String) throws -> Void) throws -> Bool {
        let temporary = temporaryPath(beside: path)
        TemporaryFiles.register(temporary)
        defer {
            for leftover in [temporary, temporary + "-wal", temporary + "-shm", temporary + "-journal"] { unlink(leftover) }
            TemporaryFiles.unregister(temporary)
        }
        try write(temporary)
        try flush(temporary, permissions: permissions)
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
    public static func moveAside(_ path: String, now: Date = Date()) throws(SystemError) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let aside = "\(path).damaged-\(formatter.string(from: now))"
        try SystemError.check("rename", path: path) { rename(path, aside) }
        for suffix in ["-wal", "-shm"] where kind(of: path + suffix) != .missing { rename(path + suffix, aside + suffix) }
        return aside
    }

    /// Writes `data` to `path` atomically (see `atomicWrite(to:permissions:_:)`).
    public static func atomicWrite(_ data: Data, to path: String, permissions: Int? = nil) throws {
        try atomicWrite(to: path, permissions: permissions) { temporary in
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
    public static func atomicCopy(_ source: String, to path: String, permissions: Int? = nil) throws {
        try atomicWrite(to: path, permissions: permissions) { temporary in
            do { try FileManager.default.copyItem(atPath: source, toPath: temporary) } catch {
                throw SystemError(operation: "copy", path: path, code: (error as NSError).underlyingPOSIXCode ?? EIO)
            }
        }
    }

    /// A hidden name in `path`'s folder (`.NAME.TOKEN.partial`), so a rename from it is atomic.
    /// `StaleFiles`-style sweeps recognise the suffix.
    public static func temporaryPath(beside path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let token = UUID().uuidString.prefix(8).lowercased()
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(token).partial").path
    }

    /// The suffix of every temporary file `atomicWrite` makes, by which sweeps recognise them.
    public static let temporarySuffix = ".partial"

    /// Creates `path` and any missing parents (`mkdir -p`), each new level with `permissions`
    /// (less what the umask removes);
    /// a relative path stays relative. An existing folder is accepted as it is.
    /// - Throws: `SystemError` naming `path` (`ENOTDIR` when it, or a parent, is a file).
    public static func makeDirectory(_ path: String, permissions: Int) throws(SystemError) {
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

    /// What is at a path, without following a final symbolic link.
    public enum Kind: Equatable, Sendable {
        case missing, regular, directory, symbolicLink, other
    }

    /// What is at `path` (`lstat`).
    public static func kind(of path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// Whether `path` is a folder (following links).
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether the current user may create and remove files in the folder `path`.
    public static func isWritableDirectory(_ path: String) -> Bool {
        access(path, W_OK | X_OK) == 0
    }

    /// Removes a file; a file already gone is not an error.
    public static func remove(_ path: String) {
        unlink(path)
    }

    /// Gives the temporary file its mode and flushes it to disk before it is renamed into place.
    private static func flush(_ path: String, permissions: Int?) throws {
        let fd = try SystemError.check("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) }
        defer { close(fd) }
        if let permissions { try SystemError.check("chmod", path: path) { fchmod(fd, mode_t(permissions)) } }
        // Some shared file systems (FUSE, 9p) cannot flush (EINVAL, ENOTSUP); the rename is still atomic there.
        if fsync(fd) != 0 {
            let failure = SystemError.capture("fsync", path: path)
            guard failure.code == EINVAL || failure.code == ENOTSUP else { throw failure }
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

extension NSError {
    /// The POSIX code behind a Foundation file error, when there is one.
    var underlyingPOSIXCode: Int32? {
        if domain == NSPOSIXErrorDomain { return Int32(code) }
        return (userInfo[NSUnderlyingErrorKey] as? NSError)?.underlyingPOSIXCode
    }
}
