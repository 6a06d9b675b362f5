import Foundation
import VoiceAlarmCore

/// A well-formed request the library refuses (exit 1), saying what and why.
package enum LibraryError: ClassifiedError, Equatable, CustomStringConvertible {
    case unknownClip(String)
    case unknownAlarm(String)
    case ambiguousID(String, kind: String, count: Int)
    case shortID(String)
    /// A reference with a character no id has (`%`, `_`, a space…) or longer than an id, as
    /// `IDPrefix.shown` echoes it; `kind` is "clip" or "alarm".
    case notAnID(String, kind: String)
    case unknownPlaylist(String)
    case playlistExists(String)
    case reservedName(String)
    case invalidName(String, reason: String)
    /// A clip title that cannot be stored (`ClipTitle.problem`).
    case invalidTitle(reason: String)
    /// An alarm label that cannot be kept (`AlarmLabel.check`).
    case invalidLabel(AlarmLabel.Problem)
    /// Text a spoken stand-in cannot be made from (`SpokenText.problem`).
    case invalidSpokenText(reason: String)
    case positionOutOfRange(playlist: String, position: Int, count: Int)
    case playlistInUse(String, alarms: Int)
    /// Clips that alarms play: removing them changes those ringtones, and the alarms in
    /// `fallingBack` would be left with no recording (the default tone). Refused unless forced.
    case clipInUse(String, alarms: [UUID], fallingBack: [UUID])
    case rule(Alarm, AlarmRules.Violation)
    /// A snooze length outside `Snooze.minutes`.
    case invalidSnooze(Int)
    /// A snoozed ring's id with no snooze pending (stopped, or long past).
    case noPendingSnooze(String)
    /// A `listen` reference that is no playlist, clip or alarm.
    case unknownPreview(String)
    /// A preview of a target with no recording.
    case nothingToPlay(String)

    package var description: String {
        switch self {
        case .unknownClip(let id): "\(id): no such clip"
        case .unknownAlarm(let id): "\(id): no such alarm"
        case .ambiguousID(let id, let kind, let count): "\(id): matches \(count) \(kind)s; give more of the id"
        case .shortID(let id): "\(id): give at least 8 characters of the id"
        case .notAnID(let reference, _): "'\(reference)': not an id (ids are hexadecimal)"
        case .unknownPlaylist(let name): "\(name): no such playlist"
        case .playlistExists(let name): "\(name): a playlist with this name already exists"
        case .reservedName(let name): "\(name): reserved for the manifesto; choose another playlist name"
        case .invalidName(let name, let reason): "'\(Self.printable(name))': \(reason)"
        case .invalidTitle(let reason): "clip title: \(reason)"
        case .invalidLabel(let problem): "alarm label: \(problem)"
        case .invalidSpokenText(let reason): "text to speak: \(reason)"
        case .positionOutOfRange(let playlist, let position, let count):
            "\(playlist): no position \(position) (the playlist has \(count) clip\(count == 1 ? "" : "s"))"
        case .playlistInUse(let name, let alarms):
            "\(name): \(alarms) alarm\(alarms == 1 ? " uses" : "s use") it"
        case .clipInUse(let clip, let alarms, let fallingBack):
            "\(clip): \(alarms.count) alarm\(alarms.count == 1 ? " plays" : "s play") it"
                + (fallingBack.isEmpty
                    ? "" : "; \(fallingBack.map { $0.uuidString.lowercased() }.joined(separator: ", ")) would ring the default tone, with no recording left")
        case .invalidSnooze(let minutes): "snooze: \(minutes) is out of range (\(Snooze.minutes.lowerBound) to \(Snooze.minutes.upperBound) minutes)"
        case .noPendingSnooze(let id): "\(id): no snooze of this alarm is pending (it was stopped, or has rung)"
        case .unknownPreview(let reference):
            "\(reference): no playlist, clip or alarm by this name or id"
        case .nothingToPlay(let subject): "\(subject): no recording yet, so nothing to play (its alarms ring with the default tone)"
        case .rule(let alarm, let violation):
            "\(alarm.target) at \(alarm.time) \(alarm.date.map(\.description) ?? alarm.days.list): \(violation)"
        }
    }

    /// The id, name or title the error is about, as the person gave it (for `--json`'s error object).
    package var input: String? {
        switch self {
        case .unknownClip(let id), .unknownAlarm(let id), .ambiguousID(let id, _, _), .shortID(let id), .notAnID(let id, _): id
        case .unknownPlaylist(let name), .playlistExists(let name), .reservedName(let name), .invalidName(let name, _): name
        case .positionOutOfRange(let playlist, _, _), .playlistInUse(let playlist, _): playlist
        case .clipInUse(let clip, _, _): clip
        case .invalidTitle, .invalidLabel, .invalidSpokenText: nil
        case .invalidSnooze: "snooze"
        case .unknownPreview(let reference), .nothingToPlay(let reference), .noPendingSnooze(let reference): reference
        case .rule(let alarm, _): alarm.target.description
        }
    }

    /// As the web answers it: a missing thing 404, a rule 409, a value it cannot keep 400.
    package var failureKind: FailureKind {
        switch self {
        case .unknownClip, .unknownAlarm, .unknownPlaylist, .unknownPreview, .noPendingSnooze: .notFound
        case .playlistExists, .playlistInUse, .clipInUse, .rule, .ambiguousID: .conflict
        case .shortID, .notAnID, .reservedName, .invalidName, .invalidTitle, .invalidLabel, .invalidSpokenText, .positionOutOfRange,
            .invalidSnooze, .nothingToPlay:
            .invalid
        }
    }

    package var failureInput: String? { input }

    /// A name as it can be shown on one line: control characters escaped (`\u{A}`).
    static func printable(_ text: String) -> String { PrintableText.escaped(text) }
}
