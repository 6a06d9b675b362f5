import Foundation
import VoiceAlarmCore
import VoiceAlarmStore

/// An alarm as `alarm list` shows it: the record, what it will really play, and when next.
public struct AlarmStatus: Sendable {
    public var stored: StoredAlarm
    public var sound: SoundResolution
    public var next: Date?

    public var alarm: Alarm { stored.alarm }
}
