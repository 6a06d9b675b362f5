internal import CFFmpeg
import Foundation
import VoiceAlarmFiles

/// SHA-256 digests, by libavutil's `av_sha`: the identity of a clip's audio and of a ringtone's inputs.
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
        let hasher = try Hasher()
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
        let hasher = try! Hasher()
        hasher.update(data)
        return hasher.finish()
    }

    /// An `AVSHA` context, freed in deinit. The corresponding C functions are `av_sha_alloc`,
    /// `av_sha_init`, `av_sha_update`, `av_sha_final`.
    final class Hasher {
        private let context: OpaquePointer
        init() throws {
            guard let context = av_sha_alloc() else {
                throw AudioError.ffmpeg(path: "", function: "av_sha_alloc", code: cffmpeg_error_nomem(), message: "out of memory")
            }
            self.context = context
            av_sha_init(context, 256)
        }
        deinit { av_free(UnsafeMutableRawPointer(context)) }

        func update(_ data: Data) {
            data.withUnsafeBytes(update(bytes:))
        }

        func update(bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress else { return }
            av_sha_update(context, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        }

        func finish() -> String {
            var digest = [UInt8](repeating: 0, count: 32)
            av_sha_final(context, &digest)
            return digest.map { String(format: "%02x", $0) }.joined()
        }
    }
}
