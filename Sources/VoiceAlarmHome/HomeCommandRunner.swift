import Foundation
import VoiceAlarm
import VoiceAlarmCore

/// Does what a command from Home Assistant asks, through the service, as the same command does
/// at the terminal or on the page — never by running the binary. Repeated or out-of-date
/// commands are harmless: turning on an alarm that is on, skipping a ring already skipped,
/// Stop with nothing ringing, each does nothing and says so.
package struct HomeCommandRunner {
    /// What came of a command, for the log and the machine's "Last command" sensor.
    package struct Outcome: Equatable, Sendable {
        /// Whether it changed something.
        package var changed: Bool
        /// A sentence for a person: "Alarm 06:45 is off.", "Nothing was ringing."
        package var sentence: String
    }

    let location: LibraryLocation
    let open: () throws -> AlarmService

    package init(location: LibraryLocation, open: @escaping () throws -> AlarmService) {
        self.location = location
        self.open = open
    }

    /// Runs `command`. A refusal of the library (an unknown alarm, a rule) is an outcome, not a
    /// throw: the bridge logs it and goes on.
    package func run(_ command: HomeCommand) -> Outcome {
        do { return try perform(command) } catch { return Outcome(changed: false, sentence: "Not done: \(error)") }
    }

    private func perform(_ command: HomeCommand) throws -> Outcome {
        switch command {
        case .stop:
            // From the data dir alone, as `voicealarm stop` and the page's Stop: works while a command holds the library.
            let stopped = RingStopper.stop(in: location, open: open)
            return stopped.rings.isEmpty
                ? Outcome(changed: false, sentence: "Stop: nothing was ringing.")
                : Outcome(changed: true, sentence: "Stopped \(stopped.rings.count == 1 ? "the ring" : "\(stopped.rings.count) rings").")
        case .snooze:
            let service = try open()
            do {
                let snoozed = try service.snoozes.snooze()
                let when = snoozed.map { LocalTimeText.clock($0.ringAt, service.timeZone) }.joined(separator: ", ")
                return Outcome(changed: true, sentence: "Snoozed: it rings again at \(when).")
            } catch let refusal as Snoozer.Refusal {
                return Outcome(changed: false, sentence: "Snooze: \(refusal).")
            }
        case .imUp:
            let service = try open()
            do {
                let cancelled = try service.snoozes.cancelWaiting()
                return Outcome(changed: true, sentence: "I'm up: \(cancelled.count == 1 ? "the snooze is" : "\(cancelled.count) snoozes are") cancelled.")
            } catch Snoozer.Refusal.nothingWaiting {
                return Outcome(changed: false, sentence: "I'm up: no snooze was waiting.")
            }
        case .setOn(let id, let on):
            let service = try open()
            let before = try service.alarms.status(of: id)
            guard before.alarm.isOn != on else { return Outcome(changed: false, sentence: "\(name(before)) was already \(on ? "on" : "off").") }
            let after = try service.alarms.setOn(on, for: id.uuidString)
            return Outcome(changed: true, sentence: "\(name(after)) is \(on ? "on" : "off").")
        case .setVoice(let id, let on):
            let service = try open()
            let before = try service.alarms.status(of: id)
            guard before.alarm.voice != on else {
                return Outcome(changed: false, sentence: "\(name(before)) already \(on ? "wakes to your voice" : "plays the standard sound").")
            }
            let after = try service.alarms.setVoice(on, for: id.uuidString)
            return Outcome(changed: true, sentence: "\(name(after)) \(on ? "wakes to your voice" : "plays the standard sound; your recordings are kept").")
        case .skipNext(let id):
            let service = try open()
            let before = try service.alarms.status(of: id)
            // Skip next means the schedule's next ring is skipped: pressed again, it stays so.
            let patternNext = before.alarm.patternNext(after: service.now(), in: service.timeZone)
            if let patternNext, before.next != patternNext {
                return Outcome(changed: false, sentence: "\(name(before)): its next ring is already skipped.")
            }
            let after = try service.alarms.skip(id.uuidString, .next)
            let next = after.next.map { "; it rings next \(LocalTimeText.short($0, service.timeZone))" } ?? ""
            return Outcome(changed: true, sentence: "\(name(after)): the next ring is skipped\(next).")
        case .ringNow(let id):
            let service = try open()
            do {
                _ = try TestRingDesk(dataDirectory: service.dataDirectory).ask(id.uuidString, in: service)
                return Outcome(changed: true, sentence: "\(name(try service.alarms.status(of: id))) rings here now, for \(Int(TestRing.seconds)) s.")
            } catch let refusal as TestRingDesk.Refusal {
                return Outcome(changed: false, sentence: "Ring it now: \(Self.words(refusal)).")
            }
        case .setTime(let id, let time):
            let service = try open()
            let before = try service.alarms.status(of: id)
            guard before.alarm.time != time else { return Outcome(changed: false, sentence: "\(name(before)) already rings at \(time).") }
            var edit = AlarmEdit()
            edit.time = time
            let after = try service.alarms.edit(id.uuidString, edit)
            return Outcome(changed: true, sentence: "\(name(after)) rings at \(time) now.")
        }
    }

    private static func words(_ refusal: TestRingDesk.Refusal) -> String {
        switch refusal {
        case .noDaemon: "no alarm daemon runs on the bedside machine, so nothing can ring there now (nor would the alarms)"
        case .systemdTimers: "this machine rings its alarms with systemd timers, which ring at their times only"
        case .ringingNow: "an alarm is ringing now; stop it first"
        }
    }

    private func name(_ status: AlarmStatus) -> String { status.alarm.label ?? "Alarm \(status.alarm.time)" }
}
