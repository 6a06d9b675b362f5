import Foundation
import VoiceAlarmFiles

/// Which of our alarms are ringing right now: `<data-dir>/ringing/<uuid>.pid`, one per `ring`
/// process, so `voicealarm stop` can stop them all (the app stops its own ringing when the
/// user comes to it).
package struct RingingRegistry: Sendable {
    package let directory: String

    package init(dataDirectory: String) { directory = "\(dataDirectory)/ringing" }

    /// Records that this process rings `id`. In another user's library (root ringing it) nothing
    /// is written: that user could neither stop this process nor remove the entry.
    package func register(_ id: UUID, pid: Int32 = getpid()) throws {
        guard FileSystem.isMine((directory as NSString).deletingLastPathComponent) else { return }
        try FileSystem.makeDirectory(directory, permissions: 0o700)
        try FileSystem.atomicWrite(Data("\(pid)\n".utf8), to: file(id))
    }

    /// Records that `id` no longer rings; an entry already gone is not an error.
    /// - Throws: `SystemError` when the entry stays (a read-only or foreign folder): harmless for
    ///   `stop`, which skips an entry whose process is no ring, so the ring only says so.
    package func unregister(_ id: UUID) throws(SystemError) { try FileSystem.remove(ifPresent: file(id)) }

    /// Sends SIGTERM to every ringing process of ours; stale entries (the process is gone, or is
    /// not a voicealarm ring) are removed. Returns the alarms stopped.
    package func stopAll() -> [UUID] {
        var stopped: [UUID] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where name.hasSuffix(".pid") {
            guard let id = UUID(uuidString: String(name.dropLast(4))),
                let text = FileSystem.text("\(directory)/\(name)"),
                let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), Self.isRing(pid)
            else {
                // Best effort: an entry that cannot be removed is stale all the same, and skipped again next time.
                FileSystem.remove("\(directory)/\(name)")
                continue
            }
            if kill(pid, SIGTERM) == 0 { stopped.append(id) }
        }
        return stopped
    }

    /// The ids ringing now, each with its live ring process (stale entries are skipped).
    package func live() -> [(id: UUID, pid: Int32)] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted().compactMap { name in
            guard name.hasSuffix(".pid"), let id = UUID(uuidString: String(name.dropLast(4))),
                let text = FileSystem.text("\(directory)/\(name)"),
                let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), Self.isRing(pid)
            else { return nil }
            return (id, pid)
        }
    }

    /// Stops one ring (SIGTERM to its process); false when it was not ringing.
    @discardableResult
    package func stop(_ id: UUID) -> Bool {
        guard let ring = live().first(where: { $0.id == id }) else { return false }
        return kill(ring.pid, SIGTERM) == 0
    }

    /// The ids ringing now.
    package func ringing() -> [UUID] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).compactMap {
            $0.hasSuffix(".pid") ? UUID(uuidString: String($0.dropLast(4))) : nil
        }
    }

    /// When the ring of `id` began (its entry's time), nil when it is not ringing: a new ring
    /// of the same alarm is told apart from the one before it by this.
    package func since(_ id: UUID) -> Date? {
        (try? FileStamp(path: file(id))).map { Date(timeIntervalSince1970: $0.modifiedSeconds) }
    }

    private func file(_ id: UUID) -> String { "\(directory)/\(id.uuidString.lowercased()).pid" }

    /// Whether `pid` is a live `voicealarm … ring` process (never signal a recycled pid).
    static func isRing(_ pid: Int32) -> Bool {
        guard let data = FileSystem.contents("/proc/\(pid)/cmdline") else { return false }
        let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        return words.first?.hasSuffix("voicealarm") == true && words.contains("ring")
    }
}
