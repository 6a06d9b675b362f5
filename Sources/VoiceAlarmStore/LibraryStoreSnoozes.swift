import Foundation
import VoiceAlarmCore

/// The snoozed rings waiting to ring again: one row per alarm at most, removed with its alarm.
/// They are not in the last-known-good copy: a snooze lasts minutes, and a restored library
/// starts without one (the alarm's own schedule is kept).
extension LibraryStore {
    /// Every pending snooze, soonest first.
    package func snoozes() throws -> [PendingSnooze] {
        try db.query("SELECT alarm_id, ring_at, count FROM snoozes ORDER BY ring_at").compactMap { row in
            // A time a snooze can hold: finite, from 1970 to the year 9999 (an edited row may say anything).
            guard let alarm = row["alarm_id"]?.text.flatMap(UUID.init(uuidString:)), let ringAt = row["ring_at"]?.real,
                ringAt.isFinite, (0...253_402_300_799).contains(ringAt), let count = row["count"]?.int, count > 0
            else { return nil }
            return PendingSnooze(alarm: alarm, ringAt: Date(timeIntervalSince1970: ringAt), count: count)
        }
    }

    /// Records a snooze, replacing the alarm's earlier one.
    package func setSnooze(_ snooze: PendingSnooze) throws {
        try changing {
            try db.execute(
                "INSERT OR REPLACE INTO snoozes (alarm_id, ring_at, count) VALUES (?, ?, ?)",
                [.text(snooze.alarm.uuidString.lowercased()), .real(snooze.ringAt.timeIntervalSince1970), .integer(Int64(snooze.count))])
        }
    }

    /// Forgets snoozes: the given alarms', or every one.
    package func deleteSnoozes(of alarms: [UUID]? = nil) throws {
        try changing {
            if let alarms {
                for alarm in alarms { try db.execute("DELETE FROM snoozes WHERE alarm_id = ?", [.text(alarm.uuidString.lowercased())]) }
            } else {
                try db.execute("DELETE FROM snoozes")
            }
        }
    }
}
