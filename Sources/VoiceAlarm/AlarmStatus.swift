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

/// What a change to the library did to alarms.
public struct RebuildSummary: Sendable {
    /// Alarms whose voice file was (re)built.
    public var rebuilt: [UUID] = []
    /// Alarms that were checked and needed nothing.
    public var unchanged: [UUID] = []
    /// Alarms now on the default tone, with the reason.
    public var onDefault: [(UUID, String)] = []

    public init() {}
    public var touched: [UUID] { rebuilt + unchanged + onDefault.map(\.0) }
}
