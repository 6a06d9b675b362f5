import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles

/// The batch's output folder: made before a run, swept of what killed runs left, and rid of a
/// failed ringtone's old file.
extension BatchBuilder {
    /// What a killed run of this writer left in the output folder. An unsharded batch removes
    /// the caches and temporaries of processes that no longer run; a shard, which may share the
    /// folder with shards on other machines (whose processes it cannot see), removes only what
    /// its own earlier runs left: its tagged caches, temporaries of its ringtones and of its index.
    func sweep(_ owned: [BatchManifest.Item]) {
        let folder = "\(output)/\(BatchIndex.folderName)"
        guard shard.isSharded else {
            BatchClipCache.sweepAbandoned(in: output)
            FileSystem.removeAbandonedTemporaries(in: output)
            FileSystem.removeAbandonedTemporaries(in: folder)
            return
        }
        BatchClipCache.sweep(in: output, tag: cacheTag)
        let names = owned.flatMap { item in RingtoneFormat.allCases.map(item.fileName(as:)) }
        FileSystem.removeTemporaries(in: output, of: Set(names))
        FileSystem.removeTemporaries(in: folder, of: [BatchIndex.fileName(of: shard)])
    }

    /// The cache tag of this shard (`s2of4_`), empty when unsharded.
    var cacheTag: String { shard.isSharded ? "s\(shard.index)of\(shard.count)_" : "" }

    /// A failed ringtone's old output is the wrong sound: it goes (whichever shard built it), with its record.
    func retire(_ id: String, records: BatchRecords, index: inout BatchIndex) {
        guard !id.hasPrefix("#") else { return }
        let previous = index.ringtones.removeValue(forKey: id)
        for file in Set(records.ringtones(id).map(\.file) + [previous?.file].compactMap { $0 }) {
            FileSystem.remove("\(output)/\(file)")
        }
    }

    /// Makes the output folder and its index folder, or says why not.
    func makeOutputDirectory() throws {
        if FileSystem.kind(of: output) != .missing, !FileSystem.isDirectory(output) {
            throw BatchError.output(output, "exists and is not a folder")
        }
        do { try FileSystem.makeDirectory(output, permissions: 0o755) } catch {
            throw BatchError.output(output, "cannot be created (\(error.reason))")
        }
        guard FileSystem.isWritableDirectory(output) else { throw BatchError.output(output, "is not writable") }
        let folder = "\(output)/\(BatchIndex.folderName)"
        do { try FileSystem.makeDirectory(folder, permissions: 0o755) } catch {
            throw BatchError.output(folder, "cannot be created (\(error.reason))")
        }
    }
}
