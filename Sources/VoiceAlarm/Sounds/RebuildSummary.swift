import Foundation
import VoiceAlarmCore

/// What a change to the library did to alarms, each sorted by what happened to it.
package struct RebuildSummary: Sendable {
    /// Alarms whose voice file was (re)built.
    package var rebuilt: [UUID] = []
    /// Alarms that were checked and needed nothing.
    package var unchanged: [UUID] = []
    /// Alarms now on the default tone, with the typed reason.
    package var onDefault: [(UUID, DefaultToneReason)] = []
    /// Alarms whose rebuild the machine stopped: they keep their voice file, and the rebuild is
    /// owed. A command that leaves any here has failed (exit 1).
    package var deferred: [(UUID, String)] = []
    /// Alarms whose rebuilt voice file was left under its loudness target, and why.
    package var shortfalls: [(UUID, LoudnessShortfall)] = []

    package init() {}

    /// Every alarm the change reached.
    package var touched: [UUID] { rebuilt + unchanged + onDefault.map(\.0) + deferred.map(\.0) }

    /// Adds what happened to one alarm.
    mutating func record(_ id: UUID, _ outcome: SoundBuilder.Outcome) {
        switch outcome {
        case .unchanged: unchanged.append(id)
        case .built(_, let shortfall):
            rebuilt.append(id)
            if let shortfall { shortfalls.append((id, shortfall)) }
        case .defaultTone(let reason): onDefault.append((id, reason))
        case .deferred(let reason): deferred.append((id, reason))
        }
    }
}
