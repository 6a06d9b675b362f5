import Foundation
import VoiceAlarmCore

/// Something a workflow wants the person to know that did not stop it: a clip left out of a
/// ringtone, a ringtone under its loudness target, a rebuild the machine stopped, a scheduler
/// that refused an alarm. Workflows hand these to their `warn` sink as values; the command line
/// alone turns them into words, so rewording one never changes what a caller decides.
public enum ServiceWarning: Equatable, Sendable {
    /// A clip whose audio no longer decodes was left out of an alarm's ringtone.
    case clipUnusable(clip: UUID, title: String, target: Target, reason: WarningCause)
    /// A clip whose stored recording is gone was left out of a target's ringtone.
    case clipMissing(clip: UUID, title: String, target: Target)
    /// An alarm's new ringtone was left under its loudness target.
    case ringtoneQuiet(alarm: UUID, shortfall: LoudnessShortfall)
    /// The machine stopped an alarm's rebuild (no space, read-only…): the alarm keeps `keptFile`,
    /// which still matches its recordings, until the rebuild can be done.
    case rebuildDeferred(alarm: UUID, error: WarningCause, keptFile: String)
    /// An alarm's ringtone could not be built: it rings the default tone, for `reason`.
    case onDefaultTone(alarm: UUID, reason: DefaultToneReason)
    /// A rebuild worker could not open the library; the others (or the caller) build its share.
    case rebuildWorkerUnavailable(error: WarningCause)
    /// The scheduler refused to schedule an alarm; the library keeps it and a reconcile retries.
    case notScheduled(alarm: UUID, error: WarningCause)
    /// The scheduler refused to cancel an alarm.
    case notCancelled(alarm: UUID, error: WarningCause)
    /// The embedded scheduler's list was damaged: kept aside as `keptAs` and made again.
    case schedulerListRemade(reason: String, keptAs: String)
    /// A folder the person chose was open to other users and was made private (0700).
    case folderMadePrivate(path: String, previousMode: UInt32)
    /// A repair moved the damaged library aside, to this path.
    case libraryMovedAside(String)
    /// A voice file of an alarm that should go (a replaced format, a removed alarm, a voice
    /// switched off) could not be removed: it stays, taking room, and may hold an old recording.
    case soundFileNotRemoved(alarm: UUID, path: String, error: WarningCause)
    /// A new voice file could not be made private (0600): it rings, but other users may read it.
    case soundFileNotPrivate(alarm: UUID, path: String, error: WarningCause)
}
