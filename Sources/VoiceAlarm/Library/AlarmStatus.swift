import Foundation
import VoiceAlarmCore
import VoiceAlarmStore

/// An alarm as `alarm list` shows it: the record, what it will really play, and when next.
package struct AlarmStatus: Sendable {
    package var stored: StoredAlarm
    package var sound: SoundResolution
    package var next: Date?
    /// The spoken stand-ins (`clip say`) among the target's clips: while there are any, the
    /// alarm wakes its person partly to a generated voice, not yet their own.
    package var spokenStandIns: [UUID] = []
    /// When a snoozed ring of this alarm rings again; nil when none waits.
    package var snoozedUntil: Date?

    package var alarm: Alarm { stored.alarm }
}
