import Foundation

/// Times as VoiceAlarm writes them for people and programs: ISO 8601 with the zone's offset
/// (`2026-11-30T07:00:00+01:00`, `+00:00` for UTC, never `Z`), the same in JSON, logs and lines.
package enum LocalTimeText {
    /// `date` in ISO 8601 with the offset of `timeZone`.
    package static func iso(_ date: Date, _ timeZone: TimeZone) -> String {
        format(date, timeZone, "yyyy-MM-dd'T'HH:mm:ssxxxxx")
    }

    /// `Mon 12-01 06:45`: a ring time in a list line, short enough for 100 columns.
    package static func short(_ date: Date, _ timeZone: TimeZone) -> String { format(date, timeZone, "EEE MM-dd HH:mm") }

    /// `03:00`: the local clock time.
    package static func clock(_ date: Date, _ timeZone: TimeZone) -> String { format(date, timeZone, "HH:mm") }

    private static func format(_ date: Date, _ timeZone: TimeZone, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
