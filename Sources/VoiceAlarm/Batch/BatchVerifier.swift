import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles

/// The pipeline's final gate after every shard ran: checks, without encoding anything, that
/// each ringtone of a manifest (or of one shard) is in the output folder, up to date and
/// shippable, and says what is missing or stale.
///
/// Up to date: its inputs' bytes (hashed again when their stat changed) and its settings give
/// the identity some shard recorded for it. Shippable: that record's file is there and is still
/// exactly the file the build wrote (size, inode and modification time unchanged since) — a
/// record is only written for a file that passed `RingtoneRenderer`'s check (decoded again,
/// under the cap, one of the five formats), so nothing is decoded here.
///
/// ```swift
/// let verdict = try BatchVerifier(manifest: manifest, outputDirectory: "out").verify()
/// verdict.ok   // false when anything is missing or stale
/// ```
package struct BatchVerifier: Sendable {
    /// What `verify()` found: `{"ok", "checked", "missing": [{"id", "reason"}], "stale": [{"id", "reason"}]}`.
    package struct Verdict: Encodable, Sendable {
        package struct Entry: Encodable, Sendable, Equatable {
            package var id: String
            package var reason: String
        }
        package var ok: Bool { missing.isEmpty && stale.isEmpty }
        /// How many ringtones were checked.
        package var checked = 0
        /// Ringtones with no output, or that cannot be built at all.
        package var missing: [Entry] = []
        /// Ringtones whose output is there but not what the manifest and the inputs now make.
        package var stale: [Entry] = []

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(ok, forKey: .ok)
            try container.encode(checked, forKey: .checked)
            try container.encode(missing, forKey: .missing)
            try container.encode(stale, forKey: .stale)
        }
        private enum CodingKeys: String, CodingKey { case ok, checked, missing, stale }
    }

    let manifest: BatchManifest
    let output: String
    let shard: ShardSpec

    package init(manifest: BatchManifest, outputDirectory: String, shard: ShardSpec = .whole) {
        self.manifest = manifest
        output = outputDirectory
        self.shard = shard
    }

    /// Checks every ringtone of the shard (of the whole manifest by default). Writes nothing.
    /// - Throws: `BatchError.output` when no batch index is in the folder (nothing was built there).
    package func verify() throws -> Verdict {
        guard FileSystem.isDirectory(output), BatchRecords.exist(in: output) else {
            throw BatchError.output(output, "no batch was built here (no \(BatchIndex.folderName)); nothing to verify")
        }
        let records = BatchRecords(directory: output)
        var verdict = Verdict()
        var hashes: [String: String] = [:]
        for item in BatchBuilder.items(of: manifest, in: shard) {
            verdict.checked += 1
            if let problem = item.problem { verdict.missing.append(.init(id: item.id, reason: "cannot be built: \(problem)")); continue }
            let file = item.fileName
            let present = FileSystem.kind(of: "\(output)/\(file)", followingLinks: true) == .regular
            let key: String
            do {
                key = BatchBuilder.key(item.settings, try item.clips.map { try hash($0, records: records, seen: &hashes) })
            } catch {
                let reason = "a clip cannot be read (\(SystemError.text(of: error)))"
                if present { verdict.stale.append(.init(id: item.id, reason: reason)) } else { verdict.missing.append(.init(id: item.id, reason: reason)) }
                continue
            }
            if records.current(item.id, key: key, file: file) != nil { continue }
            guard present else {
                verdict.missing.append(.init(id: item.id, reason: "\(file) is not in \(output)"))
                continue
            }
            let built = records.ringtones(item.id)
            let reason =
                if built.contains(where: { $0.key == key && $0.file == file }) {
                    "\(file) changed since it was built"
                } else if built.contains(where: { $0.file == file }) {
                    // Name the input whose bytes are not those a build recorded; none: the settings.
                    if let changed = item.clips.first(where: { path in hashes[path].map { !records.recordedHashes(path).contains($0) } ?? false }) {
                        "\(changed) changed since \(file) was built"
                    } else {
                        "its clips or settings changed since \(file) was built"
                    }
                } else {
                    "\(file) was not built by a batch into this folder"
                }
            verdict.stale.append(.init(id: item.id, reason: reason))
        }
        return verdict
    }

    /// An input's content hash (`BatchRecords.input`), once per verification.
    private func hash(_ path: String, records: BatchRecords, seen: inout [String: String]) throws -> String {
        if let known = seen[path] { return known }
        let hash = try records.input(path).sha256
        seen[path] = hash
        return hash
    }
}
