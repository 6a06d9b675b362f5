internal import CNettle
import Foundation
import VoiceAlarmFiles

/// SHA-256 digests, by Nettle: the identity of a clip's audio and of a ringtone's inputs.
package enum ContentHash {
    /// The hex SHA-256 of a file's bytes, read in chunks. Only a regular file is opened: a
    /// FIFO or a device (which would block, or never end) is refused first.
    /// - Throws: `AudioError.notRegularFile` for a FIFO, device or socket;
    ///   `AudioError.unreadable` when the file cannot be read.
    package static func sha256(file path: String) throws -> String {
        let kind = FileSystem.kind(of: path, followingLinks: true)
        guard kind == .regular else {
            if kind == .missing { throw AudioError.fileNotFound(path: path) }
            if kind == .directory { throw AudioError.isDirectory(path: path) }
            throw AudioError.notRegularFile(path: path, kind: kind.description)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw AudioError.unreadable(path: path, reason: "cannot open for hashing")
        }
        defer { try? handle.close() }
        var hasher = Hasher()
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(chunk) }
        } catch {
            throw AudioError.unreadable(path: path, reason: SystemError(foundation: error, operation: "read", path: path).reason)
        }
        return hasher.finish()
    }

    /// The hex SHA-256 of a text's UTF-8 bytes.
    package static func sha256(_ text: String) -> String { sha256(Data(text.utf8)) }

    /// The hex SHA-256 of `data`.
    package static func sha256(_ data: Data) -> String {
        var hasher = Hasher()
        hasher.update(data)
        return hasher.finish()
    }

    /// Nettle's SHA-256 context. The corresponding C functions are `sha256_init`,
    /// `sha256_update`, `sha256_digest`.
    struct Hasher {
        private var context = sha256_ctx()
        init() { cnettle_sha256_init(&context) }

        mutating func update(_ data: Data) {
            data.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                cnettle_sha256_update(&context, bytes.count, base.assumingMemoryBound(to: UInt8.self))
            }
        }

        mutating func finish() -> String {
            var digest = [UInt8](repeating: 0, count: 32)
            cnettle_sha256_digest(&context, &digest)
            return digest.map { String(format: "%02x", $0) }.joined()
        }
    }
}
