import Foundation
import VoiceAlarmCore
import VoiceAlarmStore

/// An alarm as `alarm list` shows it (and an app's `VoiceAlarmLibrary` returns it): the record,
/// what it will really play, and when next.
public struct AlarmStatus: Sendable {
    /// The alarm's record, with what was built for it.
    package var stored: StoredAlarm
    /// What the alarm will really play: its voice ringtone, or the default tone and why.
    public var sound: SoundResolution
    /// When it rings next; nil for a one-off that has rung, or an alarm that is off.
    public var next: Date?
    /// Whether it is a one-off that has rung (lists hide those unless asked).
    package var hasFinished = false
    /// The days it does not ring that are still ahead (skipped days, a pause).
    package var skips = Skips()
    /// The spoken stand-ins (`clip say`) among the target's clips: while there are any, the
    /// alarm wakes its person partly to a generated voice, not yet their own.
    package var spokenStandIns: [UUID] = []
    /// When a snoozed ring of this alarm rings again; nil when none waits.
    package var snoozedUntil: Date?

    /// The alarm: what it plays, when, and its "wake up to my voice" switch.
    public var alarm: Alarm { stored.alarm }
}
