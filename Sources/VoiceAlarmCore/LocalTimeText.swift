import Foundation

/// Times as VoiceAlarm writes them for people and programs: ISO 8601 with the zone's offset
/// (`2026-11-30T07:00:00+01:00`, `+00:00` for UTC, never `Z`), the same in JSON, logs and lines.
public enum LocalTimeText {
    /// `date` in ISO 8601 with the offset of `timeZone`.
    public static func iso(_ date: Date, _ timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxxxx"
        return formatter.string(from: date)
    }
}
