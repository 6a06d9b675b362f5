import VoiceAlarmCore

/// A holiday imported: `{"date", "name", "calendar"}` (`holidays list --json`, `GET /api/holidays`).
package struct HolidayJSON: Encodable {
    package var date: String, name: String, calendar: String

    package init(_ holiday: Holiday) {
        date = holiday.date.description
        name = holiday.name
        calendar = holiday.calendar
    }
}
