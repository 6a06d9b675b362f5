import Foundation
import VoiceAlarmCore

/// What a ring tells the person while it rings, as values: the surfaces word them
/// (`VoiceAlarmDocuments`), and decide from `isWarning` what `--quiet` keeps. Every fallback is
/// one of these: a ring that makes no sound is never silent about it.
package enum RingNotice: Equatable, Sendable {
    /// The library could not be used; the ring goes on from what was found without it.
    case degraded(tag: String, reason: String)
    /// A scheduled ring found too late: logged as missed, not rung.
    case missed(tag: String, lateMinutes: Int, windowMinutes: Int)
    /// The voice file decodes to nothing: the default tone rings instead.
    case voiceFileEmpty(tag: String, file: String)
    /// The voice file failed at ring time: the default tone rings instead.
    case voiceFileFailed(tag: String, error: String)
    /// The default tone's file cannot be made or read: the same chime rings from memory.
    case defaultToneFromMemory(tag: String, error: String)
    /// The device asked for does not open: `default` is tried.
    case deviceRefused(error: String)
    /// The device failed mid-ring (a sound server restarting, a card unplugged): others are tried.
    case deviceFailedMidRing(tag: String, device: String, error: String)
    /// After a failure mid-ring, the ring goes on on `device`.
    case ringingOn(tag: String, device: String)
    /// The device has no mixer to unmute.
    case noMixer(device: String)
    /// The mixer was already at or above the floor.
    case mixerAlreadyUp(device: String)
    /// The mixer was raised for the ring (each control's change), and is restored afterwards.
    case mixerRaised(changes: [String])
    /// The ringing entry (what `stop` finds) could not be removed.
    case entryNotRemoved(tag: String, error: String)
    /// The event log cannot be written: this ring is not recorded there (said once).
    case eventLogUnwritable(error: String)
    /// Nothing could be played: neither sound could be prepared, or no device played it.
    case madeNoSound(tag: String, reason: String)

    /// Whether nothing could be played: the one notice no `--quiet` silences.
    package var madeNoSound: Bool {
        if case .madeNoSound = self { true } else { false }
    }

    /// Whether it is a warning (or worse), not news of a ring going as it should.
    package var isWarning: Bool {
        switch self {
        case .noMixer, .mixerAlreadyUp, .mixerRaised, .ringingOn: false
        default: true
        }
    }
}
