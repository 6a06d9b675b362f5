import Foundation
import Testing
import VoiceAlarmCore

/// Seconds already held by other rings, and where a 5-minute snooze taken at 07:00:12 lands:
/// 07:05:12 rounded up to 07:06:00 (+348 s), or the next free whole minute.
private let heldMinutes: [([Double], Double)] = [([], 348), ([300], 348), ([348], 408), ([348, 408], 468), ([360], 408), ([-12, 600], 348)]

@Suite("Snooze rules: the snoozed ring's id and minute")
struct SnoozeRuleTests {
    @Test("A snoozed ring's id is the alarm's with every bit flipped: never an alarm's id, and it gives the alarm back", arguments: 0..<50)
    func ids(_ seed: Int) {
        let alarm = UUID()
        let snoozed = Snooze.scheduleID(for: alarm)
        #expect(snoozed != alarm)
        #expect(Snooze.scheduleID(for: snoozed) == alarm)
        #expect(Snooze.isScheduleID(snoozed))
        #expect(!Snooze.isScheduleID(alarm), "alarm ids are version 4")
    }

    private static let now = Date(timeIntervalSince1970: 1_799_046_012)  // 2027-01-04 07:00:12 UTC

    @Test(
        "The snooze rings its minutes later at a whole minute, a minute later for each minute already held",
        arguments: heldMinutes)
    func ringTime(_ taken: [Double], _ expected: Double) {
        let ringAt = Snooze.ringTime(after: Self.now, minutes: 5, taken: taken.map { Self.now.addingTimeInterval($0) })
        #expect(ringAt.timeIntervalSince(Self.now) == expected)
    }
}
