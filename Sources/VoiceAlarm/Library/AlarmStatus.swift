import Foundation
import VoiceAlarmCore
import VoiceAlarmStore

/// An alarm as `alarm list` shows it: the record, what it will really play, and when next.
public struct AlarmStatus: Sendable {
    public var stored: StoredAlarm
    public var sound: SoundResolution
    public var next: Date?
    /// The spoken stand-ins (`clip say`) among the target's clips: while there are any, the
    /// alarm wakes its person partly to a generated voice, not yet their own.
    public var spokenStandIns: [UUID] = []
    /// When a snoozed ring of this alarm rings again; nil when none waits.
    public var snoozedUntil: Date?

    public var alarm: Alarm { stored.alarm }
}
