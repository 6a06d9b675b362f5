import Foundation
import VoiceAlarmCore

/// The library's playlists and the manifesto: their names and their clips, in order.
extension LibraryStore {
    /// Playlist names, in the order they were created.
    package func playlistNames() throws -> [String] {
        try db.query("SELECT name FROM targets WHERE kind = 'playlist' ORDER BY id").compactMap { $0["name"]?.text }
    }

    /// The stored spelling of a target, or nil when there is no such playlist.
    package func existingTarget(_ target: Target) throws -> Target? {
        guard case .playlist(let name) = target else { return .manifesto }
        return try db.query("SELECT name FROM targets WHERE kind = 'playlist' AND name = ?", [.text(name)])
            .first?["name"]?.text.map(Target.playlist)
    }

    package func createPlaylist(_ name: String) throws {
        try changing {
            try db.execute("INSERT INTO targets (kind, name) VALUES ('playlist', ?)", [.text(name)])
        }
    }

    /// Renames a playlist; its alarms point at it by row, so they follow.
    package func renamePlaylist(_ name: String, to newName: String) throws {
        try changing {
            try db.execute("UPDATE targets SET name = ? WHERE kind = 'playlist' AND name = ?", [.text(newName), .text(name)])
        }
    }

    package func deletePlaylist(_ name: String) throws {
        try changing {
            try db.execute("DELETE FROM targets WHERE kind = 'playlist' AND name = ?", [.text(name)])
        }
    }

    /// A target's clips, in order (a clip may appear more than once).
    package func clips(of target: Target) throws -> [UUID] {
        try db.query(
            """
            SELECT tc.clip_id FROM target_clips tc JOIN targets t ON t.id = tc.target_id
            WHERE \(Self.targetWhere) ORDER BY tc.position
            """, Self.targetKey(target)
        ).compactMap { $0["clip_id"]?.text.flatMap(UUID.init(uuidString:)) }
    }

    /// Replaces a target's clips with `clips`, in that order.
    package func setClips(_ clips: [UUID], of target: Target) throws {
        try changing {
            guard let id = try db.query("SELECT id FROM targets t WHERE \(Self.targetWhere)", Self.targetKey(target)).first?["id"]?.integer else {
                preconditionFailure("setClips on a target that does not exist: \(target)")
            }
            try db.execute("DELETE FROM target_clips WHERE target_id = ?", [.integer(id)])
            for (position, clip) in clips.enumerated() {
                try db.execute(
                    "INSERT INTO target_clips (target_id, position, clip_id) VALUES (?, ?, ?)",
                    [.integer(id), .integer(Int64(position + 1)), .text(clip.uuidString.lowercased())])
            }
        }
    }

    /// Every target's clips: what `LibraryChange.affectedAlarms` needs.
    package func allTargetClips() throws -> [Target: [UUID]] {
        var result: [Target: [UUID]] = [:]
        for row in try db.query("SELECT t.kind, t.name, tc.clip_id FROM target_clips tc JOIN targets t ON t.id = tc.target_id ORDER BY t.id, tc.position") {
            if let clip = row["clip_id"]?.text.flatMap(UUID.init(uuidString:)) { result[Self.target(row), default: []].append(clip) }
        }
        return result
    }
}
