import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// One writer's incremental record of a batch: for each ringtone, the identity of what it was
/// built from, the file it became (with that file's stamp, so a file replaced since is never
/// taken for it) and what its report said; for each input, the content hash with the file's
/// size, modification time and inode.
///
/// Each writer has its own file, `OUT/.voicealarm-batch.d/shard-K-of-N.json` (`shard-1-of-1.json`
/// for an unsharded batch), written atomically, so shards sharing `OUT` never write one file;
/// every run reads all of them together (`BatchRecords`), with the single
/// `OUT/.voicealarm-batch.json` of earlier versions.
///
/// A stat that matches lets a run reuse a recorded hash; a stat that differs always leads to
/// hashing the bytes again — a timestamp alone never decides that a ringtone is unchanged.
struct BatchIndex: Codable {
    struct Ringtone: Codable, Equatable {
        /// SHA-256 of the settings and the ordered input hashes.
        var key: String
        var file: String
        var bytes: Int
        /// The output as it was written (nil in indexes of earlier versions: size alone decides then).
        var stamp: FileStamp?
        var duration: Double?
        var clips: [BatchReport.ClipUse]?
        var warning: String?
        /// Set when the ringtone was left under its loudness target (nil in indexes of earlier versions).
        var shortfall: LoudnessShortfall?
    }

    struct Input: Codable, Equatable {
        var size: Int
        var modified: Double
        var inode: UInt64
        var sha256: String
    }

    /// The single index of earlier versions (read, and removed by an unsharded run).
    static let legacyFileName = ".voicealarm-batch.json"
    /// The folder of the per-writer indexes.
    static let folderName = ".voicealarm-batch.d"

    var version = 1
    var ringtones: [String: Ringtone] = [:]
    var inputs: [String: Input] = [:]

    /// Where `shard` keeps its index in `directory`.
    static func path(of shard: ShardSpec, in directory: String) -> String {
        "\(directory)/\(folderName)/\(fileName(of: shard))"
    }

    static func fileName(of shard: ShardSpec) -> String { "\(shard.fileStem).json" }

    /// The index at `path`, or an empty one when there is none or it is unreadable
    /// (everything it recorded is then rebuilt — the safe side).
    static func load(_ path: String) -> BatchIndex {
        guard let data = FileSystem.contents(path),
            let index = try? JSONDecoder().decode(BatchIndex.self, from: data), index.version == 1
        else { return BatchIndex() }
        return index
    }

    /// The paths of every index in `directory`: the per-writer ones, then the legacy one.
    static func paths(in directory: String) -> [String] {
        let folder = "\(directory)/\(folderName)"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
        let legacy = "\(directory)/\(legacyFileName)"
        return names.map { "\(folder)/\($0)" } + (FileSystem.kind(of: legacy) == .regular ? [legacy] : [])
    }

    /// Writes the index atomically to `path`.
    func save(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do { try FileSystem.atomicWrite(try encoder.encode(self), to: path) } catch let error as SystemError {
            throw BatchError.output(path, error.reason)
        }
    }
}
