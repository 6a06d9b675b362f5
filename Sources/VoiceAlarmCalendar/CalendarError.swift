import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// Why an iCalendar file gives no holidays: each names the file and says what to do.
package enum CalendarError: Error, Equatable, Sendable, CustomStringConvertible {
    /// It cannot be read (the system's reason).
    case unreadable(path: String, reason: String)
    /// It is larger than `Holiday.Limits.bytes`.
    case tooLarge(path: String, bytes: Int)
    /// It is empty.
    case empty(path: String)
    /// libical does not read it as iCalendar (no VCALENDAR, not text).
    case notICalendar(path: String)
    /// It holds more than `Holiday.Limits.events` events, or they give more than `.days` days.
    case tooManyEvents(path: String, count: Int)
    /// No event in it has a date (or none falls in the years imported).
    case noDatedEvents(path: String, from: Int, through: Int)

    package var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): \(reason)"
        case .tooLarge(let path, let bytes):
            "\(path): \(bytes / 1024) KB is larger than the \(Holiday.Limits.bytes / 1024 / 1024) MB a calendar file may be"
        case .empty(let path): "\(path): the file is empty"
        case .notICalendar(let path): "\(path): not an iCalendar file (no BEGIN:VCALENDAR that libical reads)"
        case .tooManyEvents(let path, let count):
            "\(path): \(count) events or days is more than \(Holiday.Limits.events) events and \(Holiday.Limits.days) days a calendar may give"
        case .noDatedEvents(let path, let from, let through):
            "\(path): no event with a date in \(from == through ? "\(from)" : "\(from) to \(through)")"
        }
    }
}

extension CalendarError: ClassifiedError {
    /// A file the person gave that cannot be used (400 on the page, exit 1).
    package var failureKind: FailureKind {
        if case .unreadable = self { return .notFound }
        return .invalid
    }
    package var failureInput: String? {
        switch self {
        case .unreadable(let path, _), .tooLarge(let path, _), .empty(let path), .notICalendar(let path), .tooManyEvents(let path, _),
            .noDatedEvents(let path, _, _):
            path
        }
    }
}
