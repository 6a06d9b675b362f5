import Foundation
import VoiceAlarm
import VoiceAlarmCore

/// A snoozed ring: `{"alarm", "ringAt", "count", "left"}`.
package struct SnoozedJSON: Encodable {
    package var alarm: String, ringAt: String, count: Int, left: Int
    package init(_ snoozed: Snoozer.Snoozed, _ timeZone: TimeZone) {
        alarm = snoozed.alarm.uuidString.lowercased()
        ringAt = LocalTimeText.iso(snoozed.ringAt, timeZone)
        count = snoozed.count
        left = snoozed.left
    }
}
