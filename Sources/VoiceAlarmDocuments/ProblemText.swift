import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmStore

/// The words for a failure, per surface: the service's errors say what happened and why in
/// words every surface shares; what a person can do about it is the surface's own (a command at
/// the terminal, a tap or a word to the machine's owner on the page), added here and only here.
package enum ProblemText {
    /// One line, without the `error: ` before it.
    package static func sentence(_ error: any Error, on surface: Surface) -> String {
        switch error {
        case let error as LibraryError: library(error, surface)
        case let error as DeviceError: device(error, surface)
        case let error as Snoozer.Refusal: snooze(error, surface)
        case let error as StoreError: store(error, surface)
        case let error as ImportRefusal: importRefusal(error, surface)
        default: SystemError.text(of: error)
        }
    }

    private static func library(_ error: LibraryError, _ surface: Surface) -> String {
        let said = error.description
        switch (error, surface) {
        case (.unknownClip, .terminal): return said + " (see 'voicealarm clip list')"
        case (.unknownAlarm, .terminal): return said + " (see 'voicealarm alarm list')"
        case (.unknownPlaylist, .terminal): return said + " (see 'voicealarm playlist list')"
        case (.unknownPreview, .terminal): return said + " (see 'voicealarm playlist list', 'clip list', 'alarm list')"
        case (.notAnID(let reference, let kind), .terminal): return "'\(reference)': not an id (ids are hexadecimal, as '\(kind) list' prints them)"
        case (.playlistInUse, .terminal): return said + "; remove them first or pass --with-alarms"
        case (.playlistInUse, .page): return said + "; remove those alarms first, or delete the playlist with them"
        case (.clipInUse(let clip, let alarms, let fallingBack), .terminal):
            return "\(clip): \(playing(alarms.count))"
                + (fallingBack.isEmpty
                    ? "" : "; \(fallingBack.map { $0.uuidString.lowercased() }.joined(separator: ", ")) would ring the default tone, with no recording left")
                + "; pass --force to remove it anyway"
        case (.clipInUse(_, let alarms, let fallingBack), .page):
            let lost =
                fallingBack.count == alarms.count && alarms.count == 1
                ? "; it would ring the default tone, with no recording left"
                : fallingBack.isEmpty ? "" : "; \(fallingBack.count) of them would ring the default tone, with no recording left"
            return "this clip: \(playing(alarms.count))" + lost + ". Remove it anyway to change their ringtones"
        case (.invalidSnooze, .terminal): return "--" + said
        case (.rule(let alarm, let violation), .page):
            return "\(alarm.time) \(alarm.date.map(\.description) ?? alarm.days.compact): " + rule(violation, surface)
        default: return said
        }
    }

    private static func playing(_ count: Int) -> String { "\(count) alarm\(count == 1 ? " plays" : "s play") it" }

    /// A rule an alarm breaks; on the page the other alarm is named by its time, days and
    /// target, never by its id.
    package static func rule(_ violation: AlarmRules.Violation, _ surface: Surface) -> String {
        guard case .overlaps(let other) = violation, surface == .page else { return violation.description }
        let when = other.date.map { "on \($0)" } ?? other.days.compact
        return "the alarm at \(other.time) \(when) (\(other.target)) rings in the same minute; two alarms at once make Stop look broken"
    }

    private static func device(_ error: DeviceError, _ surface: Surface) -> String {
        let said = error.description
        switch (error, surface) {
        case (.wrongCode, .terminal), (.expiredCode, .terminal): return said + "; run 'voicealarm serve pair' for a new one"
        case (.wrongCode, .page), (.expiredCode, .page): return said + "; get a new code from the bedside machine"
        case (.unknownDevice, .terminal): return said + " (see 'voicealarm serve devices')"
        case (.notAnID(let reference), .terminal): return "'\(reference)': not an id (ids are hexadecimal, as 'serve devices' prints them)"
        case (.notPaired, .terminal): return said + ": open the pairing link 'voicealarm serve' printed, or send a token ('voicealarm token create')"
        case (.notPaired, .page): return said + ": open the pairing link from the bedside machine"
        default: return said
        }
    }

    private static func snooze(_ refusal: Snoozer.Refusal, _ surface: Surface) -> String {
        switch (refusal, surface) {
        case (.nothingRinging, _): "nothing of ours is ringing"
        case (.noSnooze(let id), .terminal):
            "alarm \(id.uuidString.lowercased()) has no snooze: it rings until stopped ('voicealarm stop'); snooze is chosen per alarm with 'alarm add … --snooze MINUTES'"
        case (.noSnooze, .page): "this alarm has no snooze: it rings until you press Stop"
        case (.limitReached(let id), .terminal):
            "alarm \(id.uuidString.lowercased()) has been snoozed \(Snooze.maximumRepeats) times in a row, the most: it rings until stopped ('voicealarm stop')"
        case (.limitReached, .page): "snoozed \(Snooze.maximumRepeats) times in a row, the most: it rings until you press Stop"
        case (.testRing(let id), .terminal):
            "alarm \(id.uuidString.lowercased()) rings as a test, which is stopped, not snoozed ('voicealarm stop')"
        case (.testRing, .page): "this alarm rings as a test, which is stopped, not snoozed: press Stop"
        case (.nothingWaiting, _): "no snooze is waiting"
        }
    }

    /// An import refused: the terminal names the option that merges.
    private static func importRefusal(_ refusal: ImportRefusal, _ surface: Surface) -> String {
        switch (refusal, surface) {
        case (.libraryHasAlarms(let archive, let count), .terminal):
            "\(archive): this library already has \(count) alarm\(count == 1 ? "" : "s"); import into an empty library, or pass --merge to add to it"
        default: refusal.description
        }
    }

    private static func store(_ error: StoreError, _ surface: Surface) -> String {
        guard case .damaged = error else { return error.description }
        return error.description + (surface == .terminal ? " — run 'voicealarm repair'" : "; ask the machine's owner to repair the library")
    }
}
