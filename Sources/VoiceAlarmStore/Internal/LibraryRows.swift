import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// How the library's rows map to values: the SQL that picks a target, and the decoding of
/// clips, targets, alarms and file stamps. Kept apart from `LibraryStore`'s operations.
extension LibraryStore {

    static let targetWhere = "((t.kind = 'manifesto' AND ? = 1) OR (t.kind = 'playlist' AND t.name = ?))"

    static func targetKey(_ target: Target) -> [Database.Value] {
        switch target {
        case .manifesto: [.integer(1), .null]
        case .playlist(let name): [.integer(0), .text(name)]
        }
    }

    static func target(_ row: [String: Database.Value]) -> Target {
        row["kind"]?.text == "manifesto" ? .manifesto : .playlist(row["name"]?.text ?? "")
    }

    static func clipValues(_ clip: LibraryClip) -> [Database.Value] {
        [.text(clip.idString), .text(clip.title), .text(clip.fileName), .integer(Int64(clip.frames)),
         .integer(Int64(clip.trimmedStart)), .integer(Int64(clip.trimmedLength)), .integer(Int64(clip.sampleRate)),
         .text(clip.contentHash)]
    }

    static func clip(_ row: [String: Database.Value]) -> LibraryClip {
        LibraryClip(id: UUID(uuidString: row["id"]!.text!)!, title: row["title"]?.text ?? "", fileName: row["file_name"]!.text!,
                    frames: row["frames"]!.int!, trimmedStart: row["trimmed_start"]!.int!, trimmedLength: row["trimmed_length"]!.int!,
                    sampleRate: row["sample_rate"]!.int!, contentHash: row["content_hash"]!.text!)
    }

    static func storedAlarm(_ row: [String: Database.Value]) -> StoredAlarm {
        let alarm = Alarm(id: UUID(uuidString: row["id"]!.text!)!, target: target(row),
                          time: AlarmTime(hour: row["hour"]!.int!, minute: row["minute"]!.int!),
                          days: Weekdays(rawValue: row["days"]!.int!), date: row["date"]?.text.flatMap(LocalDate.init(parsing:)),
                          label: row["label"]?.text, voice: row["voice"]?.int == 1)
        return StoredAlarm(alarm: alarm, soundFile: row["sound_file"]?.text, soundIdentity: row["sound_identity"]?.text,
                           soundReason: row["sound_reason"]?.text, soundStamp: row["sound_stamp"]?.text.flatMap(Self.stamp),
                           soundRecordings: row["sound_recordings"]?.text, rebuildPending: row["rebuild_pending"]?.text)
    }

    /// `size:modified:inode`, modified in nanoseconds.
    static func text(of stamp: FileStamp) -> String {
        "\(stamp.size):\(stamp.modified):\(stamp.inode)"
    }

    static func stamp(_ text: String) -> FileStamp? {
        let parts = text.split(separator: ":")
        guard parts.count == 3, let size = Int(parts[0]), let modified = Int64(parts[1]), let inode = UInt64(parts[2]) else { return nil }
        return FileStamp(size: size, modified: modified, inode: inode)
    }

    static func timestamp() -> String {
        ISO8601DateFormatter().string(from: Date())
    }
}
