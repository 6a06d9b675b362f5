import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// Shared ways of saying things to a person.
enum Report {
    /// What a change did to alarms, on stderr.
    /// - Returns: `.failure` when a rebuild was owed because the machine stopped it (said on stderr as an error).
    @discardableResult
    static func rebuilds(_ summary: RebuildSummary, _ context: CommandContext) -> ExitCode {
        for id in summary.rebuilt { context.say("Rebuilt the ringtone of alarm \(id.uuidString.lowercased()) and re-scheduled it.") }
        for (id, reason) in summary.onDefault {
            context.say("Alarm \(id.uuidString.lowercased()) rings with the default tone (\(reason)).")
        }
        for (id, reason) in summary.deferred {
            context.console.note(
                "error: alarm \(id.uuidString.lowercased()): its ringtone could not be rebuilt: \(reason); it keeps its current voice file, and the rebuild is retried by the next change, 'voicealarm reconcile' or the daemon"
            )
        }
        return summary.deferred.isEmpty ? .success : .failure
    }

    /// Says, as a warning, that `target`'s ringtone leaves clips out at the cap or is very short:
    /// at the moment the person arranges it, not only when they `show` it.
    static func capNote(of target: Target, _ service: AlarmService, _ context: CommandContext) throws {
        guard let note = try service.playlists.capNote(of: target) else { return }
        context.say("warning: " + capText(note, target: target))
    }

    /// "only 3.7 s of the 29 s cap is used: 'My manifesto' (35 s) crosses it" and the like.
    static func capText(_ note: CapNote, target: Target) -> String { CapText.sentence(note, target: target) }

    /// ISO 8601 with the offset of `timeZone`: `2026-11-30T07:00:00+01:00`.
    static func iso(_ date: Date, _ timeZone: TimeZone) -> String { LocalTimeText.iso(date, timeZone) }

    /// `Mon 2026-11-30 07:00 (in 9 h 12 min)`.
    static func friendly(_ date: Date, _ timeZone: TimeZone, now: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "EEE yyyy-MM-dd HH:mm"
        let minutes = max(0, Int(date.timeIntervalSince(now) / 60))
        let until =
            minutes >= 60 * 24 ? "\(minutes / (60 * 24)) d \(minutes / 60 % 24) h" : minutes >= 60 ? "\(minutes / 60) h \(minutes % 60) min" : "\(minutes) min"
        return "\(formatter.string(from: date)) (in \(until))"
    }

    static func describe(_ schedule: AlarmSchedule) -> String {
        switch schedule {
        case .fixed(let date): "at \(iso(date, TimeZone(identifier: "UTC")!))"
        case .weekly(let time, let days): "weekly \(days.list) \(time)"
        case .once(let time, let date): "once \(date) \(time)"
        }
    }

    /// Seconds rounded to milliseconds, as every `--json` duration is.
    static func seconds(_ value: Double) -> Double { JSONNumbers.seconds(value) }

    /// Levels (dB, LUFS) rounded to a tenth, as they are said; nil for a level silence leaves undefined.
    static func tenths(_ value: Double) -> Double? { value.isFinite ? (value * 10).rounded() / 10 : nil }

    /// A name as it can be pasted back into a shell.
    static func quoted(_ text: String) -> String {
        text.allSatisfy { $0.isLetter || $0.isNumber || "-_.:,/".contains($0) } ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
