import Foundation
import VoiceAlarmFiles

/// Every writer's `BatchIndex` in an output folder, read together: what any shard built before
/// counts for every shard.
struct BatchRecords {
    let directory: String
    private(set) var indexes: [BatchIndex]

    /// Reads every index in `directory` (a damaged one counts as empty).
    init(directory: String) {
        self.directory = directory
        indexes = BatchIndex.paths(in: directory).map(BatchIndex.load)
    }

    /// Whether any index exists: false for a folder no batch ever built.
    static func exist(in directory: String) -> Bool {
        FileSystem.isDirectory("\(directory)/\(BatchIndex.folderName)") || FileSystem.kind(of: "\(directory)/\(BatchIndex.legacyFileName)") == .regular
    }

    /// Every record of ringtone `id`, in any index.
    func ringtones(_ id: String) -> [BatchIndex.Ringtone] {
        indexes.compactMap { $0.ringtones[id] }
    }

    /// A record that says `id` is `file`, built from `key`, and that the file is still exactly
    /// what was written then (size, and where recorded, inode and modification time).
    func current(_ id: String, key: String, file: String) -> BatchIndex.Ringtone? {
        let candidates = ringtones(id).filter { $0.key == key && $0.file == file }
        guard !candidates.isEmpty, let stamp = try? FileStamp(path: "\(directory)/\(file)") else { return nil }
        return candidates.first { $0.bytes == stamp.size && ($0.stamp == nil || $0.stamp == stamp) }
    }

    /// The recorded content hash of `path` whose stat matches `stamp`, if any index has one.
    func hash(of path: String, matching stamp: BatchIndex.Input) -> String? {
        indexes.lazy.compactMap { $0.inputs[path] }
            .first { $0.size == stamp.size && $0.modified == stamp.modified && $0.inode == stamp.inode }?.sha256
    }
}
