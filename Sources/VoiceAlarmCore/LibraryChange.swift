import Foundation

/// Something that changes what some alarms must play.
package enum LibraryChange: Hashable, Sendable {
    /// A clip's audio changed (re-recorded, replaced, generated audio arrived), or it was removed.
    case clip(UUID)
    /// A target's order or membership changed (or the manifesto was set).
    case target(Target)
    /// The render settings changed: every voice alarm.
    case settings

    /// The alarms whose ringtone `self` changes: those whose target contains the clip, those on
    /// the target, or all. Only these are rebuilt; the others' files are not touched.
    package func affectedAlarms(_ alarms: [Alarm], targetClips: [Target: [UUID]]) -> [Alarm] {
        switch self {
        case .clip(let id): alarms.filter { targetClips[$0.target]?.contains(id) == true }
        case .target(let target): alarms.filter { $0.target == target }
        case .settings: alarms
        }
    }
}
