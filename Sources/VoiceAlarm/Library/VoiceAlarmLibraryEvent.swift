import Foundation
import VoiceAlarmCore
import VoiceAlarmStore

extension VoiceAlarmLibrary {
    /// What a change did to one alarm's sound, or something the person should know: the typed
    /// values `events` delivers, so an app decides on the case and words it its own way.
    public enum Event: Equatable, Sendable {
        /// The alarm's ringtone was built (or built again) at `ringtone`, and the alarm scheduled
        /// with it; `shortfall` when it was left under its loudness target, and why.
        case built(alarm: UUID, ringtone: String, shortfall: LoudnessShortfall?)
        /// The alarm's ringtone already matched its recordings and settings: nothing was written.
        case unchanged(alarm: UUID)
        /// The alarm rings the default tone, for `reason`: its voice switched off, no recording
        /// yet, or a ringtone that could not be built (`reason.isFailure`).
        case onDefaultTone(alarm: UUID, reason: DefaultToneReason)
        /// The machine stopped the rebuild (no space, a read-only folder): the alarm keeps its
        /// ringtone, which still matches its recordings, and the rebuild is owed. Why.
        case deferred(alarm: UUID, reason: String)
        /// Something that did not stop the change: a clip left out of a ringtone, a scheduler
        /// that refused an alarm (the library keeps it), a folder made private.
        case warning(ServiceWarning)

        /// The event for one alarm's rebuild `outcome`, its ringtone named in `sounds`.
        init(alarm: UUID, outcome: SoundBuilder.Outcome, soundsDirectory sounds: SoundsDirectory) {
            switch outcome {
            case .built(let fileName, let shortfall): self = .built(alarm: alarm, ringtone: sounds.path(of: fileName), shortfall: shortfall)
            case .unchanged: self = .unchanged(alarm: alarm)
            case .defaultTone(let reason): self = .onDefaultTone(alarm: alarm, reason: reason)
            case .deferred(let reason): self = .deferred(alarm: alarm, reason: reason)
            }
        }
    }
}
