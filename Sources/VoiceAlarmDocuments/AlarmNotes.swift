import Foundation
import VoiceAlarm
import VoiceAlarmCore

/// What a person hears after adding an alarm, on the command line and on the web page alike:
/// a time a daylight-saving change skips, what stops it ringing, and how to be sure to wake.
package enum AlarmNotes {
    /// `note: 02:30 does not exist on …`, when the alarm's time is skipped by a daylight-saving change.
    package static func daylightSaving(_ status: AlarmStatus, _ service: AlarmService) -> String? {
        guard let skipped = status.alarm.schedule.firstSkippedRing(after: service.now(), in: service.timeZone) else { return nil }
        return
            "note: \(status.alarm.time) does not exist on \(skipped.date) in \(service.timeZone.identifier) (a daylight-saving change skips it); that day the alarm rings at \(LocalTimeText.clock(skipped.ringsAt, service.timeZone)), the first valid minute after it, so the wake-up is late rather than missed"
    }

    /// The snooze it has, or (for a target's first alarm without one) a backup a few minutes later.
    /// At the terminal it names the command that adds the backup; on the page, what to set.
    package static func snoozeOrBackup(_ added: AlarmBook.Added, on surface: Surface) -> String? {
        let command = surface == .terminal
        let alarm = added.status.alarm
        if let snooze = alarm.snoozeMinutes {
            let how = command ? "'voicealarm snooze'" : "Snooze"
            return "While it rings, \(how) rings it again \(snooze) minute\(snooze == 1 ? "" : "s") later, at most \(Snooze.maximumRepeats) times in a row."
        }
        guard added.isFirstForTarget else { return nil }
        let time = alarm.time
        let backup = AlarmTime(hour: (time.hour + (time.minute + 5) / 60) % 24, minute: (time.minute + 5) % 60)
        guard command else {
            return "Tip: this alarm has no snooze. Add a backup a few minutes later, at \(backup)\(alarm.days.isEmpty ? "" : " on \(alarm.days.compact)")."
        }
        let target = alarm.target.description
        let quoted =
            target.allSatisfy { $0.isLetter || $0.isNumber || "-_.:,/".contains($0) } ? target : "'" + target.replacingOccurrences(of: "'", with: "'\\''") + "'"
        return
            "Tip: this alarm has no snooze (one added with --snooze MINUTES has). Add a backup a few minutes later: voicealarm alarm add \(quoted) --at \(backup)\(alarm.days.isEmpty ? "" : " --days \(alarm.days.compact)")"
    }

    /// Everything the page shows after an add: the daylight-saving note, what stops the alarms
    /// ringing, clips the cap leaves out, and the snooze or backup tip.
    package static func afterAdding(_ added: AlarmBook.Added, service: AlarmService) -> [String] {
        var notes: [String] = []
        if let note = daylightSaving(added.status, service) { notes.append(note) }
        notes += service.sync.problems().map { "warning: \($0.sentence(on: .page))" }
        if added.status.alarm.voice, let cap = try? service.playlists.capNote(of: added.status.alarm.target) {
            notes.append("warning: " + CapText.sentence(cap, target: added.status.alarm.target))
        }
        if let tip = snoozeOrBackup(added, on: .page) { notes.append(tip) }
        return notes
    }
}
