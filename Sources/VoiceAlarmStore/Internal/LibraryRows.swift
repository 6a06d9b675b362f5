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
        [
            .text(clip.idString), .text(clip.title), .text(clip.fileName), .integer(Int64(clip.frames)),
            .integer(Int64(clip.trimmedStart)), .integer(Int64(clip.trimmedLength)), .integer(Int64(clip.sampleRate)),
            .text(clip.contentHash), clip.spokenText.map { .text($0) } ?? .null,
        ]
    }

    /// A clip, or nil for a row that is not one (only a damaged database being salvaged has such rows).
    static func clip(_ row: [String: Database.Value]) -> LibraryClip? {
        guard let id = row["id"]?.text.flatMap(UUID.init(uuidString:)), let fileName = row["file_name"]?.text,
            let frames = row["frames"]?.int, let start = row["trimmed_start"]?.int, let length = row["trimmed_length"]?.int,
            let rate = row["sample_rate"]?.int, rate == RenderSettings.defaultSampleRate, frames > 0,
            start >= 0, length > 0, start <= frames - length, let hash = row["content_hash"]?.text
        else { return nil }
        return LibraryClip(
            id: id, title: row["title"]?.text ?? "", fileName: fileName, frames: frames, trimmedStart: start,
            trimmedLength: length, sampleRate: rate, contentHash: hash, spokenText: row["spoken_text"]?.text)
    }

    /// An alarm with what was built for it, or nil for a row that is not one (a damaged database).
    static func storedAlarm(_ row: [String: Database.Value]) -> StoredAlarm? {
        guard let id = row["id"]?.text.flatMap(UUID.init(uuidString:)), let hour = row["hour"]?.int, let minute = row["minute"]?.int,
            (0...23).contains(hour), (0...59).contains(minute), let days = row["days"]?.int
        else { return nil }
        let weekdays = Weekdays(rawValue: days), date = row["date"]?.text.flatMap(LocalDate.init(parsing:))
        guard weekdays.isEmpty != (date == nil) else { return nil }  // weekly or on a date: an edited row may be neither
        let alarm = Alarm(
            id: id, target: target(row), time: AlarmTime(hour: hour, minute: minute),
            days: weekdays, date: date,
            label: row["label"]?.text, voice: row["voice"]?.int == 1,
            snoozeMinutes: row["snooze_minutes"]?.int.flatMap { Snooze.minutes.contains($0) ? $0 : nil },
            isOn: row["off"]?.int != 1, skips: row["skips"]?.text.flatMap(Self.skips) ?? Skips(),
            skipsHolidays: row["skip_holidays"]?.int == 1)
        return StoredAlarm(
            alarm: alarm, soundFile: row["sound_file"]?.text, soundIdentity: row["sound_identity"]?.text,
            soundReason: row["sound_reason"]?.text, soundStamp: row["sound_stamp"]?.text.flatMap(Self.stamp),
            soundRecordings: row["sound_recordings"]?.text, rebuildPending: row["rebuild_pending"]?.text)
    }

    /// An alarm's skips as kept; a field that does not read is no skip at all (better a ring
    /// the person meant to skip than a skip nobody asked for).
    static func skips(_ text: String) -> Skips? { try? JSONDecoder().decode(Skips.self, from: Data(text.utf8)) }

    /// The text kept for `skips`, or nil for none.
    static func text(of skips: Skips) -> String? {
        guard !skips.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(skips)).map { String(decoding: $0, as: UTF8.self) }
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

    /// When a row is made, as its `created_at` records it: the store's clock.
    func timestamp() -> String {
        ISO8601DateFormatter().string(from: now())
    }
}
