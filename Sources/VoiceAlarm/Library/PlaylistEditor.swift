import Foundation
import VoiceAlarmCore
import VoiceAlarmStore

/// Playlists and the manifesto: what alarms play, in order. Every edit that changes a
/// target's clips rebuilds that target's alarms, and only those.
package final class PlaylistEditor {
    let store: LibraryStore
    let sync: ScheduleSync
    let clips: ClipCatalogue

    init(store: LibraryStore, sync: ScheduleSync, clips: ClipCatalogue) {
        self.store = store
        self.sync = sync
        self.clips = clips
    }

    /// Playlist names, in the order they were created.
    package func names() throws -> [String] { try store.playlistNames() }

    /// Creates a playlist, optionally with clips.
    package func create(_ name: String, clips references: [String] = []) throws {
        try Self.validateName(name)
        let ids = try references.map { try clips.resolve($0).id }
        try store.transaction {
            if try store.existingTarget(.playlist(name)) != nil { throw LibraryError.playlistExists(name) }
            try store.createPlaylist(name)
            try store.setClips(ids, of: .playlist(name))
        }
    }

    /// The clips of a target, in order.
    package func clips(of target: Target) throws -> [LibraryClip] {
        let resolved = try existing(target)
        let all = Dictionary(uniqueKeysWithValues: try store.clips().map { ($0.id, $0) })
        return try store.clips(of: resolved).compactMap { all[$0] }
    }

    /// What the person should hear about `target`'s ringtone as it is now arranged (clips left
    /// out at the cap, a very short ringtone), planned from stored lengths; nil when nothing.
    package func capNote(of target: Target) throws -> CapNote? {
        let clips = try clips(of: target)
        guard !clips.isEmpty else { return nil }
        let settings = try sync.builder.settings()
        // Clips stored at another rate than the settings' are planned at theirs (a rebuild resamples).
        guard clips.allSatisfy({ $0.sampleRate == settings.sampleRate }) else { return nil }
        return CapNote(LibraryPlan(clips: clips, settings: settings))
    }

    /// Appends clips to a playlist.
    package func append(to name: String, clips references: [String]) throws -> RebuildSummary {
        let ids = try references.map { try clips.resolve($0).id }
        return try edit(name) { $0 + ids }
    }

    /// Gives a playlist exactly these clips, in this order (the web page's reorder, remove and
    /// append in one step). Every reference is resolved first: one unknown clip changes nothing.
    package func replace(in name: String, with references: [String]) throws -> RebuildSummary {
        let ids = try references.map { try clips.resolve($0).id }
        return try edit(name) { _ in ids }
    }

    /// Moves the clip at 1-based `from` to `to`.
    package func move(in name: String, from: Int, to: Int) throws -> RebuildSummary {
        try edit(name) { clips in
            for position in [from, to] where !(1...max(1, clips.count)).contains(position) || clips.isEmpty {
                throw LibraryError.positionOutOfRange(playlist: name, position: position, count: clips.count)
            }
            var moved = clips
            moved.insert(moved.remove(at: from - 1), at: to - 1)
            return moved
        }
    }

    /// Removes the clip at 1-based `position`.
    package func remove(from name: String, position: Int) throws -> RebuildSummary {
        try edit(name) { clips in
            guard (1...max(1, clips.count)).contains(position), !clips.isEmpty else {
                throw LibraryError.positionOutOfRange(playlist: name, position: position, count: clips.count)
            }
            var removed = clips
            removed.remove(at: position - 1)
            return removed
        }
    }

    /// Deletes a playlist; refused while alarms use it unless `withAlarms`, which removes them too.
    /// - Returns: the alarms removed with it.
    package func delete(_ name: String, withAlarms: Bool) throws -> [UUID] {
        let target = try existing(.playlist(name))
        let removed: [UUID] = try store.transaction {
            let using = try store.alarms().filter { $0.alarm.target == target }.map(\.alarm.id)
            if !using.isEmpty && !withAlarms { throw LibraryError.playlistInUse(target.description, alarms: using.count) }
            for id in using { try store.deleteAlarm(id) }
            guard case .playlist(let stored) = target else { preconditionFailure("the manifesto is not a playlist") }
            try store.deletePlaylist(stored)
            return using
        }
        for id in removed { sync.retire(id) }
        return removed
    }

    /// Renames a playlist. Its alarms follow it (they keep their ids, sounds and schedules, so
    /// nothing is rebuilt). A new name already taken (in any case) by another playlist is refused.
    /// - Returns: the stored new name, and the alarms that play the playlist.
    package func rename(_ name: String, to newName: String) throws -> (target: Target, alarms: [UUID]) {
        try Self.validateName(newName)
        let alarms: [UUID] = try store.transaction {
            guard case .playlist(let stored) = try existing(.playlist(name)) else { preconditionFailure("a playlist lookup found the manifesto") }
            if let other = try store.existingTarget(.playlist(newName)), other.description != stored {
                throw LibraryError.playlistExists(newName)
            }
            try store.renamePlaylist(stored, to: newName)
            return try store.alarms().filter { $0.alarm.target == .playlist(newName) }.map(\.alarm.id)
        }
        return (.playlist(newName), alarms)
    }

    /// Sets the manifesto's one recording and rebuilds its alarms.
    package func setManifesto(_ reference: String) throws -> RebuildSummary {
        let id = try clips.resolve(reference).id
        try store.transaction { try store.setClips([id], of: .manifesto) }
        return try sync.refresh(affectedBy: .target(.manifesto))
    }

    /// The stored spelling of a target, or `unknownPlaylist`.
    package func existing(_ target: Target) throws -> Target {
        guard let found = try store.existingTarget(target) else { throw LibraryError.unknownPlaylist(target.description) }
        return found
    }

    private func edit(_ name: String, _ change: ([UUID]) throws -> [UUID]) throws -> RebuildSummary {
        let target = try existing(.playlist(name))
        let changed: Bool = try store.transaction {
            let before = try store.clips(of: target)
            let after = try change(before)
            try store.setClips(after, of: target)
            return after != before
        }
        return changed ? try sync.refresh(affectedBy: .target(target)) : RebuildSummary()
    }

    static func validateName(_ name: String) throws {
        if name.lowercased() == Target.manifestoName { throw LibraryError.reservedName(name) }
        if name.trimmingCharacters(in: .whitespaces).isEmpty { throw LibraryError.invalidName(name, reason: "a playlist needs a name") }
        if name.count > 100 { throw LibraryError.invalidName(name, reason: "at most 100 characters") }
        if PrintableText.hasControlCharacters(name) {
            throw LibraryError.invalidName(name, reason: "control characters are not allowed")
        }
    }
}
