import Foundation

/// Times as VoiceAlarm writes them for people and programs: ISO 8601 with the zone's offset
/// (`2026-11-30T07:00:00+01:00`, `+00:00` for UTC, never `Z`), the same in JSON, logs and lines.
package enum LocalTimeText {
    /// `date` in ISO 8601 with the offset of `timeZone`.
    package static func iso(_ date: Date, _ timeZone: TimeZone) -> String {
        let fields = Fields(date, timeZone)
        let offset = timeZone.secondsFromGMT(for: date)
        let magnitude = abs(offset)
        var zone = "\(offset < 0 ? "-" : "+")\(two(magnitude / 3600)):\(two(magnitude % 3600 / 60))"
        if magnitude % 60 != 0 { zone += ":\(two(magnitude % 60))" }  // a zone's old local mean time
        return "\(fields.date)T\(two(fields.hour)):\(two(fields.minute)):\(two(fields.second))\(zone)"
    }

    /// `Mon 12-01 06:45`: a ring time in a list line, short enough for 100 columns.
    package static func short(_ date: Date, _ timeZone: TimeZone) -> String {
        let fields = Fields(date, timeZone)
        return "\(weekdays[fields.weekday - 1]) \(two(fields.month))-\(two(fields.day)) \(two(fields.hour)):\(two(fields.minute))"
    }

    /// `03:00`: the local clock time.
    package static func clock(_ date: Date, _ timeZone: TimeZone) -> String {
        let fields = Fields(date, timeZone)
        return "\(two(fields.hour)):\(two(fields.minute))"
    }

    /// English weekday abbreviations, Sunday first (Calendar's `weekday` 1...7): what
    /// `en_US_POSIX` writes, in every locale.
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// A number in two digits at least.
    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// The Gregorian calendar's fields of `date` in `timeZone`. Read from `Calendar` rather than
    /// written by a `DateFormatter`: making one loads ICU's date formatting, which was half of
    /// what `alarm list` spent after starting.
    private struct Fields {
        let year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, weekday: Int
        init(_ date: Date, _ timeZone: TimeZone) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
            (year, month, day) = (parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
            (hour, minute, second, weekday) = (parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0, parts.weekday ?? 1)
        }
        /// `2026-11-30`, the year in four digits at least.
        var date: String { "\(String(repeating: "0", count: max(0, 4 - String(year).count)))\(year)-\(two(month))-\(two(day))" }
    }
}
