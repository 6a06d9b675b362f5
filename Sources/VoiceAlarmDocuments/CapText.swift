import Foundation
import VoiceAlarm
import VoiceAlarmCore

/// The words for a ringtone the cap cuts or that is very short.
package enum CapText {
    /// "only 3.7 s of the 29 s cap is used: 'My manifesto' (35 s) crosses it" and the like.
    package static func sentence(_ note: CapNote, target: Target) -> String {
        let used = String(format: "%.1f s", note.usedSeconds), cap = String(format: "%g s", note.cap)
        guard let crossing = note.crossing else {
            return "\(target)'s ringtone is only \(used) long (under \(String(format: "%g", RingtoneWarning.shortestQuiet)) s)"
        }
        let more = note.leftOut > 1 ? ", so it and the \(note.leftOut - 1) after it are left out" : " and is left out"
        return
            "only \(used) of the \(cap) cap is used: '\(crossing.title)' (\(String(format: "%.1f", crossing.seconds)) s) crosses it\(more) of \(target)'s ringtone"
    }
}
