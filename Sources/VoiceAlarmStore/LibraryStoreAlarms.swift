import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// The library's alarms: their rows, and those that do not read as an alarm.
extension LibraryStore {
    package func alarms() throws -> [StoredAlarm] {
        try db.query("SELECT a.*, t.kind, t.name FROM alarms a JOIN targets t ON t.id = a.target_id ORDER BY a.hour, a.minute, a.rowid")
            .compactMap(Self.storedAlarm)
    }

    /// The ids of alarm rows that do not make an alarm (edited or damaged: neither weekly nor
    /// dated, a time out of range): `alarms()` leaves them out, so they are reported, and a
    /// reconcile never cancels what the scheduler holds for them.
    package func unreadableAlarmIDs() throws -> [UUID] {
        try db.query("SELECT a.*, t.kind, t.name FROM alarms a LEFT JOIN targets t ON t.id = a.target_id ORDER BY a.rowid").compactMap { row in
            guard Self.storedAlarm(row) == nil || row["kind"] == nil || row["kind"]?.text == nil else { return nil }
            return row["id"]?.text.flatMap(UUID.init(uuidString:))
        }
    }

    package func alarm(_ id: UUID) throws -> StoredAlarm? {
        try db.query(
            "SELECT a.*, t.kind, t.name FROM alarms a JOIN targets t ON t.id = a.target_id WHERE a.id = ?",
            [.text(id.uuidString.lowercased())]
        ).first.flatMap(Self.storedAlarm)
    }

    package func insertAlarm(_ alarm: Alarm) throws {
        try changing {
            let targetID = try db.query("SELECT id FROM targets t WHERE \(Self.targetWhere)", Self.targetKey(alarm.target)).first?["id"]?.integer
            guard let targetID else { preconditionFailure("an alarm on a target that does not exist: \(alarm.target)") }
            try db.execute(
                """
                INSERT INTO alarms (id, target_id, hour, minute, days, date, label, voice, snooze_minutes, off, skips, skip_holidays, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(alarm.idString), .integer(targetID), .integer(Int64(alarm.time.hour)), .integer(Int64(alarm.time.minute)),
                    .integer(Int64(alarm.days.rawValue)), alarm.date.map { .text($0.description) } ?? .null,
                    alarm.label.map { .text($0) } ?? .null, .integer(alarm.voice ? 1 : 0),
                    alarm.snoozeMinutes.map { .integer(Int64($0)) } ?? .null, .integer(alarm.isOn ? 0 : 1),
                    Self.text(of: alarm.skips).map { .text($0) } ?? .null, .integer(alarm.skipsHolidays ? 1 : 0), .text(timestamp()),
                ])
        }
    }

    /// Replaces an alarm's settings under its own id (`alarm edit`): what it plays, when, its
    /// label and snooze. What was built for it stays; a rebuild decides whether it still fits.
    package func updateAlarm(_ alarm: Alarm) throws {
        try changing {
            let targetID = try db.query("SELECT id FROM targets t WHERE \(Self.targetWhere)", Self.targetKey(alarm.target)).first?["id"]?.integer
            guard let targetID else { preconditionFailure("an alarm on a target that does not exist: \(alarm.target)") }
            try db.execute(
                "UPDATE alarms SET target_id = ?, hour = ?, minute = ?, days = ?, date = ?, label = ?, snooze_minutes = ?, off = ?, skips = ?, skip_holidays = ? WHERE id = ?",
                [
                    .integer(targetID), .integer(Int64(alarm.time.hour)), .integer(Int64(alarm.time.minute)), .integer(Int64(alarm.days.rawValue)),
                    alarm.date.map { .text($0.description) } ?? .null, alarm.label.map { .text($0) } ?? .null,
                    alarm.snoozeMinutes.map { .integer(Int64($0)) } ?? .null, .integer(alarm.isOn ? 0 : 1),
                    Self.text(of: alarm.skips).map { .text($0) } ?? .null, .integer(alarm.skipsHolidays ? 1 : 0), .text(alarm.idString),
                ])
        }
    }

    package func deleteAlarm(_ id: UUID) throws {
        try changing {
            try db.execute("DELETE FROM alarms WHERE id = ?", [.text(id.uuidString.lowercased())])
        }
    }

    /// Turns an alarm on or off (`alarm on`, `alarm off`).
    package func setOn(_ on: Bool, for id: UUID) throws {
        try changing {
            try db.execute("UPDATE alarms SET off = ? WHERE id = ?", [.integer(on ? 0 : 1), .text(id.uuidString.lowercased())])
        }
    }

    package func setVoice(_ on: Bool, for id: UUID) throws {
        try changing {
            try db.execute("UPDATE alarms SET voice = ? WHERE id = ?", [.integer(on ? 1 : 0), .text(id.uuidString.lowercased())])
        }
    }

    /// Records what an alarm now plays: a voice file built from `identity` (with its stamp once
    /// checked), or the default tone and why.
    /// Clears any rebuild owed.
    package func setSound(
        for id: UUID, file: String?, identity: String?, reason: String?, stamp: FileStamp? = nil,
        recordings: String? = nil
    ) throws {
        try changing {
            try db.execute(
                """
                UPDATE alarms SET sound_file = ?, sound_identity = ?, sound_reason = ?, sound_stamp = ?, sound_recordings = ?,
                rebuild_pending = NULL WHERE id = ?
                """,
                [
                    file.map { .text($0) } ?? .null, identity.map { .text($0) } ?? .null,
                    reason.map { .text($0) } ?? .null, stamp.map { .text(Self.text(of: $0)) } ?? .null,
                    recordings.map { .text($0) } ?? .null, .text(id.uuidString.lowercased()),
                ])
        }
    }

    /// Notes that an alarm's rebuild is owed (the machine stopped it) and why; its voice file stays as recorded.
    package func markRebuildPending(_ id: UUID, reason: String) throws {
        try changing {
            try db.execute("UPDATE alarms SET rebuild_pending = ? WHERE id = ?", [.text(reason), .text(id.uuidString.lowercased())])
        }
    }

    /// Records which recordings an alarm's current voice file was made from.
    package func setSoundRecordings(_ recordings: String, for id: UUID) throws {
        try db.execute("UPDATE alarms SET sound_recordings = ? WHERE id = ?", [.text(recordings), .text(id.uuidString.lowercased())])
    }

    /// Records the stamp of an alarm's voice file that was just checked and passed.
    package func setSoundStamp(_ stamp: FileStamp, for id: UUID) throws {
        try db.execute("UPDATE alarms SET sound_stamp = ? WHERE id = ?", [.text(Self.text(of: stamp)), .text(id.uuidString.lowercased())])
    }
}
