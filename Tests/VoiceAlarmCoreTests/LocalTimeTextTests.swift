import Foundation
import Testing

@testable import VoiceAlarmCore

/// Times as VoiceAlarm writes them, read from `Calendar`, against ICU's `DateFormatter` (with
/// `en_US_POSIX`, the Gregorian calendar and the zone) writing the same patterns.
@Suite("Local times written from Calendar's fields equal ICU's DateFormatter's")
struct LocalTimeTextTests {
    /// ICU's formatter of `pattern` in `zone`, made once per pattern and zone (making one costs
    /// more than a thousand uses of it).
    private static func icu(_ zone: TimeZone, _ pattern: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter
    }

    @Test(
        "ISO 8601 with the offset, the list's short form and the clock, over 2,000 instants per zone",
        arguments: ["UTC", "Europe/Berlin", "America/St_Johns", "Asia/Kathmandu", "Australia/Lord_Howe", "Pacific/Chatham", "America/Los_Angeles"])
    func agrees(_ identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        var generator = SystemRandomNumberGenerator()
        // From 1971 to 2100, and every DST change of 2026 to the second around it.
        var instants = (0..<2_000).map { _ in Date(timeIntervalSince1970: Double.random(in: 31_536_000..<4_102_444_800, using: &generator).rounded(.down)) }
        var probe = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
        while probe.timeIntervalSince1970 < 1_798_761_600 {
            if let change = zone.nextDaylightSavingTimeTransition(after: probe) {
                instants += [-1, 0, 1].map { change.addingTimeInterval($0) }
                probe = change
            } else {
                break
            }
        }
        let (iso, short, clock) = (Self.icu(zone, "yyyy-MM-dd'T'HH:mm:ssxxxxx"), Self.icu(zone, "EEE MM-dd HH:mm"), Self.icu(zone, "HH:mm"))
        for date in instants {
            #expect(LocalTimeText.iso(date, zone) == iso.string(from: date), "\(date.timeIntervalSince1970)")
            #expect(LocalTimeText.short(date, zone) == short.string(from: date), "\(date.timeIntervalSince1970)")
            #expect(LocalTimeText.clock(date, zone) == clock.string(from: date), "\(date.timeIntervalSince1970)")
        }
    }

    @Test(
        "Known instants, written out",
        arguments: [
            (1_796_018_400.0, "Europe/Berlin", "2026-11-30T07:00:00+01:00", "Mon 11-30 07:00"),
            (1_796_018_400.0, "UTC", "2026-11-30T06:00:00+00:00", "Mon 11-30 06:00"),
            (1_796_018_400.0, "Asia/Kathmandu", "2026-11-30T11:45:00+05:45", "Mon 11-30 11:45"),
        ])
    func known(_ seconds: Double, _ identifier: String, _ iso: String, _ short: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        let date = Date(timeIntervalSince1970: seconds)
        #expect(LocalTimeText.iso(date, zone) == iso)
        #expect(LocalTimeText.short(date, zone) == short)
    }
}
