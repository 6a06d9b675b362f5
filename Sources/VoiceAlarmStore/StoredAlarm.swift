import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// An alarm as the library keeps it: the alarm, and what was last built for it.
package struct StoredAlarm: Hashable, Sendable {
    package var alarm: Alarm
    /// The voice file in the sounds directory, when one was built.
    package var soundFile: String?
    /// Identity of the inputs and settings the voice file was built from (SHA-256).
    package var soundIdentity: String?
    /// Why the default tone plays, when it does.
    package var soundReason: String?
    /// Size, modification time and inode of the voice file when it last passed its check: while
    /// the file still has them it is not decoded again to decide what the alarm plays.
    package var soundStamp: FileStamp?
    /// Identity of the recordings alone (the clips' audio, in order) the voice file was made from.
    package var soundRecordings: String?
    /// Why a rebuild is owed (the machine stopped the last one), or nil.
    package var rebuildPending: String?

    package init(
        alarm: Alarm, soundFile: String? = nil, soundIdentity: String? = nil, soundReason: String? = nil,
        soundStamp: FileStamp? = nil, soundRecordings: String? = nil, rebuildPending: String? = nil
    ) {
        self.soundRecordings = soundRecordings
        self.rebuildPending = rebuildPending
        self.alarm = alarm
        self.soundFile = soundFile
        self.soundIdentity = soundIdentity
        self.soundReason = soundReason
        self.soundStamp = soundStamp
    }
}
