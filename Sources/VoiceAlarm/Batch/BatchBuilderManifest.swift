import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles

/// Reading a batch manifest, and which of its items a shard builds.
extension BatchBuilder {
    /// The most bytes a manifest may hold (a million ringtones fit well within it).
    package static let largestManifest = 64_000_000

    /// Reads the manifest at `path` (its clip paths relative to its folder) on top of `base`
    /// settings (the command line's).
    /// - Throws: `BatchError.manifest` when it cannot be read or is not a manifest.
    package static func manifest(at path: String, base: RenderSettings) throws -> BatchManifest {
        // Read no more than a manifest can be: a pipe works, /dev/zero does not fill memory.
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw BatchError.manifest(path, FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file")
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: largestManifest + 1) ?? Data() } catch {
            throw BatchError.manifest(path, "cannot be read (\(SystemError(foundation: error, operation: "read", path: path).reason))")
        }
        guard data.count <= largestManifest else {
            throw BatchError.manifest(path, "larger than \(largestManifest / 1_000_000) MB; not a manifest")
        }
        let folder = (FileSystem.absolutePath(path) as NSString).deletingLastPathComponent
        do { return try BatchManifest(data: data, folder: folder, base: base) } catch let error as BatchManifestError {
            throw BatchError.manifest(path, error.reason)
        }
    }

    /// The manifest's items that `shard` builds: those whose `shardKey` hashes to it.
    package static func items(of manifest: BatchManifest, in shard: ShardSpec) -> [BatchManifest.Item] {
        guard shard.isSharded else { return manifest.items }
        return manifest.items.filter { shard.owns(digest: ContentHash.sha256($0.shardKey)) }
    }
}
