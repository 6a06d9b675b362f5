import Foundation
import VoiceAlarmFiles

/// The incremental record a batch keeps in `OUT/.voicealarm-batch.json` (nothing else outside
/// the outputs): for each ringtone, the identity of what it was built from and the file it
/// became; for each input, the content hash with the file's size, modification time and inode.
///
/// A stat that matches lets a run reuse the recorded hash; a stat that differs always leads to
/// hashing the bytes again — a timestamp alone never decides that a ringtone is unchanged.
struct BatchIndex: Codable {
    struct Ringtone: Codable, Equatable {
        /// SHA-256 of the settings and the ordered input hashes.
        var key: String
        var file: String
        var bytes: Int
    }

    struct Input: Codable, Equatable {
        var size: Int
        var modified: Double
        var inode: UInt64
        var sha256: String
    }

    static let fileName = ".voicealarm-batch.json"
    var version = 1
    var ringtones: [String: Ringtone] = [:]
    var inputs: [String: Input] = [:]

    /// The index in `directory`, or an empty one when there is none or it is unreadable
    /// (everything is then rebuilt — the safe side).
    static func load(from directory: String) -> BatchIndex {
        guard let data = FileManager.default.contents(atPath: "\(directory)/\(fileName)"),
              let index = try? JSONDecoder().decode(BatchIndex.self, from: data), index.version == 1 else { return BatchIndex() }
        return index
    }

    /// Writes the index atomically.
    func save(to directory: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let path = "\(directory)/\(Self.fileName)"
        do { try FileSystem.atomicWrite(try encoder.encode(self), to: path) } catch let error as SystemError {
            throw BatchError.output(path, error.reason)
        }
    }
}
