import Foundation
import VoiceAlarmAudio
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
        guard !candidates.isEmpty, let stamp = try? FileStamp(path: "\(directory)/\(file)"), stamp.isExact else { return nil }
        return candidates.first { $0.bytes == stamp.size && ($0.stamp == nil || stamp.matches($0.stamp)) }
    }

    /// The content hash of the input at `path` with its stat: a recorded hash (in any index) when
    /// size, modification time and inode all still match, else the bytes hashed again. The input
    /// is checked first (`stat` only): a FIFO or a device is refused before anything opens it.
    /// - Throws: `AudioError` for an input that is missing, not a regular file or unreadable.
    /// The hashes builds recorded for the input at `path` (one per index that read it).
    func recordedHashes(_ path: String) -> Set<String> {
        Set(indexes.compactMap { $0.inputs[path]?.sha256 })
    }

    func input(_ path: String) throws -> BatchIndex.Input {
        try AudioDecoder.checkReadableFile(path)
        guard let file = try? FileStamp(path: path) else { throw AudioError.fileNotFound(path: path) }
        var input = BatchIndex.Input(size: file.size, modified: file.modifiedSeconds, inode: file.inode, sha256: "")
        // A time beyond what a stamp holds exactly is never vouched for: the bytes are hashed again.
        let recorded =
            !file.isExact
            ? nil
            : indexes.lazy.compactMap { $0.inputs[path] }
                .first { $0.size == input.size && $0.modified == input.modified && $0.inode == input.inode }
        input.sha256 = try recorded?.sha256 ?? ContentHash.sha256(file: path)
        return input
    }
}
