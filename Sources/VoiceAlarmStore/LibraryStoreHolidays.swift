import Foundation
import VoiceAlarmCore

/// The holidays imported from iCalendar files (`holidays import`), by the calendar they came
/// from: alarms set to skip holidays do not ring on them. They are kept in the last-known-good
/// copy of the library like the alarms that depend on them.
extension LibraryStore {
    /// Every holiday, by date (those of `year` alone when given).
    package func holidays(year: Int? = nil) throws -> [Holiday] {
        let rows =
            if let year {
                try db.query("SELECT date, name, calendar FROM holidays WHERE date LIKE ? ORDER BY date, calendar", [.text(String(format: "%04d-%%", year))])
            } else {
                try db.query("SELECT date, name, calendar FROM holidays ORDER BY date, calendar")
            }
        return rows.compactMap { row in
            guard let date = row["date"]?.text.flatMap(LocalDate.init(parsing:)), let name = row["name"]?.text, let calendar = row["calendar"]?.text
            else { return nil }
            return Holiday(date: date, name: name, calendar: calendar)
        }
    }

    /// The days of every holiday, for the schedules of alarms that skip them.
    package func holidayDates() throws -> Set<LocalDate> {
        Set(try db.query("SELECT DISTINCT date FROM holidays").compactMap { $0["date"]?.text.flatMap(LocalDate.init(parsing:)) })
    }

    /// Replaces the holidays of `calendar` (a calendar imported again is replaced whole).
    package func replaceHolidays(of calendar: String, with holidays: [Holiday]) throws {
        try changing {
            try db.execute("DELETE FROM holidays WHERE calendar = ?", [.text(calendar)])
            for holiday in holidays {
                try db.execute(
                    "INSERT OR IGNORE INTO holidays (date, name, calendar) VALUES (?, ?, ?)",
                    [.text(holiday.date.description), .text(holiday.name), .text(calendar)])
            }
        }
    }

    /// Removes the holidays of `calendar`, or every one; how many went.
    package func removeHolidays(of calendar: String?) throws -> Int {
        try changing {
            let before = try db.query("SELECT COUNT(*) AS n FROM holidays").first?["n"]?.int ?? 0
            if let calendar {
                try db.execute("DELETE FROM holidays WHERE calendar = ?", [.text(calendar)])
            } else {
                try db.execute("DELETE FROM holidays")
            }
            return before - (try db.query("SELECT COUNT(*) AS n FROM holidays").first?["n"]?.int ?? 0)
        }
    }

    /// Whether any alarm skips holidays, and which.
    package func alarmsSkippingHolidays() throws -> [UUID] {
        try db.query("SELECT id FROM alarms WHERE skip_holidays = 1").compactMap { $0["id"]?.text.flatMap(UUID.init(uuidString:)) }
    }
}
