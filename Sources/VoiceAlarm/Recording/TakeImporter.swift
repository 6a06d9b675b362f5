import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles

/// A recorded take entering the library: as a new clip (optionally appended to a playlist) or as
/// a clip's new audio (its alarms rebuilt). Everything that can be refused is checked before a
/// frame is captured (`prepare`); a refused take is kept only when asked.
///
/// ```swift
/// let importer = TakeImporter(service: service)
/// let plan = try importer.prepare(replacing: nil, playlist: "morning")
/// let take = TakeRecorder(source: mic, writer: try TakeWriter(path: plan.takePath, …), …).record(options)
/// let result = try importer.finish(take, plan: plan, title: "I am calm", keep: false)
/// ```
package struct TakeImporter {
    let service: AlarmService

    package init(service: AlarmService) { self.service = service }

    /// Where a take goes and what it will become, checked before recording.
    package struct Plan: Sendable {
        /// The take file to record into: `DATA-DIR/takes/<uuid>.wav`.
        package var takePath: String
        /// The clip that gets the take's audio, or nil for a new clip.
        package var replacing: LibraryClip?
        /// The playlist a new clip is appended to.
        package var playlist: String?
    }

    /// What storing the take did.
    package struct Result: Sendable {
        /// The new clip, or the replaced one with its new audio.
        package var clip: LibraryClip
        /// Integrated loudness of the take, measured while it was stored.
        package var loudness: Loudness
        /// What the new audio did to alarms.
        package var summary: RebuildSummary
        /// Where the take is kept, when it was asked to be kept.
        package var keptPath: String?
        /// What was left out at the take's end: a take is kept up to its last whole frame.
        package var cutOff: CutOff?
    }

    /// A take the library will not take, or could not store.
    package enum Refusal: Error, CustomStringConvertible {
        /// Nothing was captured.
        case empty(keptAs: String?)
        /// Nothing louder than the silence threshold (a muted microphone).
        case silent(keptAs: String?)
        /// The library could not store it (a full disk, a busy or read-only database): the take
        /// is kept, so nothing spoken is lost.
        case notStored(any Error, keptAs: String)

        package var description: String {
            switch self {
            case .empty(let kept): "the take is empty: nothing was captured" + (kept.map { " (kept as \($0))" } ?? "")
            case .silent(let kept): "the take is silent (is the microphone muted?)" + (kept.map { "; kept as \($0)" } ?? "; not stored")
            case .notStored(let error, let kept): "\(error); the take is kept as \(kept)"
            }
        }
    }

    /// Checks the clip to replace and the playlist to append to, and makes the takes folder.
    /// - Throws: `LibraryError` for an unknown clip or playlist; `SystemError` when the folder cannot be made.
    package func prepare(replacing reference: String?, playlist: String?) throws -> Plan {
        let replacing = try reference.map { try service.clips.resolve($0) }
        if let playlist { _ = try service.playlists.existing(.playlist(playlist)) }
        let takes = "\(service.dataDirectory)/takes"
        try FileSystem.makeDirectory(takes, permissions: 0o700)
        return Plan(takePath: "\(takes)/\(UUID().uuidString.lowercased()).wav", replacing: replacing, playlist: playlist)
    }

    /// Stores a finished take as `plan` says, up to its last whole frame (a device that stopped
    /// mid-write leaves a partial one; `Result.cutOff` says what was left out). The take file is
    /// removed unless `keep` — and unless the library failed to store it for a reason that is
    /// not the take's own.
    /// - Throws: `Refusal` for an empty or silent take, or one that could not be stored;
    ///   `AudioError` when the take cannot be decoded.
    package func finish(_ take: TakeRecorder.Take, plan: Plan, title: String, keep: Bool) throws -> Result {
        let kept = keep ? take.path : nil
        guard take.frames > 0 else {
            if !keep { FileSystem.remove(take.path) }
            throw Refusal.empty(keptAs: kept)
        }
        let stored: ClipCatalogue.Stored
        var summary = RebuildSummary()
        do {
            if let replacing = plan.replacing {
                (stored, summary) = try service.clips.replace(replacing, with: take.path, damage: .keepWhatDecodes)
            } else {
                stored = try service.clips.store(take.path, title: title, damage: .keepWhatDecodes)
                if let playlist = plan.playlist { summary = try service.playlists.append(to: playlist, clips: [stored.clip.idString]) }
            }
        } catch let error as AudioError where !error.isEnvironmental {
            // The take itself is at fault (silent, undecodable): it goes, unless asked to keep it.
            if !keep { FileSystem.remove(take.path) }
            if case .silent = error { throw Refusal.silent(keptAs: kept) }
            throw error
        } catch {
            throw Refusal.notStored(error, keptAs: take.path)
        }
        if !keep { FileSystem.remove(take.path) }
        return Result(clip: stored.clip, loudness: stored.loudness, summary: summary, keptPath: kept, cutOff: stored.cutOff)
    }
}
