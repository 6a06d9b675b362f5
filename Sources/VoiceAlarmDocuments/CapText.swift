import Foundation
import VoiceAlarm
import VoiceAlarmCore

/// The words for a ringtone the cap cuts or that is very short.
package enum CapText {
    /// "only 3.7 s of the 29 s cap is used: 'My manifesto' (35 s) crosses it", "'My manifesto'
    /// (35.0 s) is longer than the 29 s cap and is cut at it, so the clip after it is left out"
    /// and the like.
    package static func sentence(_ note: CapNote, target: Target) -> String {
        let used = String(format: "%.1f s", note.usedSeconds), cap = String(format: "%g s", note.cap)
        if let cut = note.cutFirst {
            let after = note.leftOut > 1 ? "the \(note.leftOut) clips after it are" : "the clip after it is"
            return
                "'\(cut.title)' (\(String(format: "%.1f", cut.seconds)) s) is longer than the \(cap) cap and is cut at it, so \(after) left out of \(target)'s ringtone"
        }
        guard let crossing = note.crossing else {
            return "\(target)'s ringtone is only \(used) long (under \(String(format: "%g", RingtoneWarning.shortestQuiet)) s)"
        }
        let more = note.leftOut > 1 ? ", so it and the \(note.leftOut - 1) after it are left out" : " and is left out"
        return
            "only \(used) of the \(cap) cap is used: '\(crossing.title)' (\(String(format: "%.1f", crossing.seconds)) s) crosses it\(more) of \(target)'s ringtone"
    }
}
