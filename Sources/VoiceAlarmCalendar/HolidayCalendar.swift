internal import CICal
import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// The holidays in an iCalendar file (a public-holiday calendar, or any export), read with
/// libical: every event's days over the years asked for — all-day events of several days give
/// each of them, recurring events (`RRULE`, `RDATE`) are expanded by libical and their `EXDATE`s
/// left out, and a rule that never ends is expanded only through the last year asked. Nothing
/// is fetched from anywhere; a file past `Holiday.Limits` is refused.
///
/// ```swift
/// let days = try HolidayCalendar.read("/home/alice/holidays.ics", from: 2026, through: 2027, name: "holidays")
/// ```
package enum HolidayCalendar {
    /// The holidays of the file at `path` in the years `from` through `through`, named `name`,
    /// sorted by date (a day two events share is kept once, with the first event's name).
    /// - Throws: `CalendarError`.
    package static func read(_ path: String, from: Int, through: Int, name: String) throws(CalendarError) -> [Holiday] {
        precondition(from <= through, "a range of years")
        let text = try contents(path)
        let calendar = try ParsedCalendar(text, path: path)
        var days: [LocalDate: String] = [:]
        let events = calendar.events
        guard events.count <= Holiday.Limits.events else { throw .tooManyEvents(path: path, count: events.count) }
        for event in events {
            let summary = icalcomponent_get_summary(event).map { String(cString: $0) } ?? "Holiday"
            for day in Self.days(of: event, from: from, through: through) where days[day] == nil {
                days[day] = PrintableText.hasControlCharacters(summary) ? "Holiday" : summary
                guard days.count <= Holiday.Limits.days else { throw .tooManyEvents(path: path, count: days.count) }
            }
        }
        guard !days.isEmpty else { throw .noDatedEvents(path: path, from: from, through: through) }
        return days.map { Holiday(date: $0.key, name: $0.value, calendar: name) }.sorted { $0.date < $1.date }
    }

    /// The file's text: refused when missing, too large, empty or not text.
    private static func contents(_ path: String) throws(CalendarError) -> String {
        let status: FileSystem.Status
        do { status = try FileSystem.status(of: path) } catch { throw .unreadable(path: path, reason: error.reason) }
        guard status.kind == .regular else { throw .unreadable(path: path, reason: "not a file") }
        guard status.size <= Holiday.Limits.bytes else { throw .tooLarge(path: path, bytes: status.size) }
        guard let data = FileSystem.contents(path) else { throw .unreadable(path: path, reason: "cannot be read") }
        guard data.count <= Holiday.Limits.bytes else { throw .tooLarge(path: path, bytes: data.count) }
        guard !data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { throw .empty(path: path) }
        guard !data.contains(0), let text = String(data: data, encoding: .utf8) else { throw .notICalendar(path: path) }
        return text
    }

    /// The days an event covers in the years asked: its own, each recurrence's, each RDATE's,
    /// without its EXDATEs; an all-day event of several days gives each (its end is exclusive).
    private static func days(of event: OpaquePointer, from: Int, through: Int) -> [LocalDate] {
        let start = icalcomponent_get_dtstart(event)
        guard icaltime_is_null_time(start) == 0, icaltime_is_valid_time(start) != 0 else { return [] }
        let length = Self.length(of: event, start: start)
        var starts: [icaltimetype] = [start]
        if let rule = icalcomponent_get_first_property(event, ICAL_RRULE_PROPERTY) {
            starts = Self.recurrences(icalproperty_get_rrule(rule), from: start, through: through)
        }
        var property = icalcomponent_get_first_property(event, ICAL_RDATE_PROPERTY)
        while let current = property {
            let rdate = icalproperty_get_rdate(current).time
            if icaltime_is_null_time(rdate) == 0 { starts.append(rdate) }
            property = icalcomponent_get_next_property(event, ICAL_RDATE_PROPERTY)
        }
        var excluded: Set<LocalDate> = []
        property = icalcomponent_get_first_property(event, ICAL_EXDATE_PROPERTY)
        while let current = property {
            if let day = Self.date(icalproperty_get_exdate(current)) { excluded.insert(day) }
            property = icalcomponent_get_next_property(event, ICAL_EXDATE_PROPERTY)
        }
        var days: [LocalDate] = []
        for first in starts {
            guard let day = Self.date(first), !excluded.contains(day) else { continue }
            for offset in 0..<length {
                guard let covered = Self.adding(offset, to: day), (from...through).contains(covered.year) else { continue }
                days.append(covered)
            }
        }
        return days
    }

    /// How many days an event covers: an all-day event's DTEND (exclusive), at most a year; else one.
    private static func length(of event: OpaquePointer, start: icaltimetype) -> Int {
        let end = icalcomponent_get_dtend(event)
        guard start.is_date != 0, icaltime_is_null_time(end) == 0, let first = date(start), let last = date(end) else { return 1 }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let a = calendar.date(from: DateComponents(year: first.year, month: first.month, day: first.day))!
        let b = calendar.date(from: DateComponents(year: last.year, month: last.month, day: last.day))!
        return min(366, max(1, Int((b.timeIntervalSince(a) / 86_400).rounded())))
    }

    /// A rule's occurrences from `start` through the end of `through`, libical walking it (at
    /// most `Holiday.Limits.recurrenceSteps` steps: a rule that never ends stops there).
    private static func recurrences(_ rule: icalrecurrencetype, from start: icaltimetype, through: Int) -> [icaltimetype] {
        guard let iterator = icalrecur_iterator_new(rule, start) else { return [start] }
        defer { icalrecur_iterator_free(iterator) }
        var found: [icaltimetype] = []
        for _ in 0..<Holiday.Limits.recurrenceSteps {
            let next = icalrecur_iterator_next(iterator)
            guard icaltime_is_null_time(next) == 0, Int(next.year) <= through else { break }
            found.append(next)
        }
        return found
    }

    /// The date a libical time names, as written (a holiday is the day the calendar says).
    private static func date(_ time: icaltimetype) -> LocalDate? {
        guard icaltime_is_null_time(time) == 0 else { return nil }
        return LocalDate(parsing: String(format: "%04d-%02d-%02d", Int(time.year), Int(time.month), Int(time.day)))
    }

    private static func adding(_ days: Int, to day: LocalDate) -> LocalDate? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let noon = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12)),
            let moved = calendar.date(byAdding: .day, value: days, to: noon)
        else { return nil }
        return LocalDate(moved, in: calendar.timeZone)
    }
}

/// A calendar libical parsed, freed in `deinit`.
private final class ParsedCalendar {
    let root: OpaquePointer

    init(_ text: String, path: String) throws(CalendarError) {
        // A malformed line must be an error to report, never a reason for libical to abort.
        icalerror_set_errors_are_fatal(0)
        guard let root = icalparser_parse_string(text) else { throw .notICalendar(path: path) }
        let kind = icalcomponent_isa(root)
        guard kind == ICAL_VCALENDAR_COMPONENT || kind == ICAL_VEVENT_COMPONENT || kind == ICAL_XROOT_COMPONENT else {
            icalcomponent_free(root)
            throw .notICalendar(path: path)
        }
        self.root = root
    }

    deinit { icalcomponent_free(root) }

    /// Its events: the root itself when it is one, a calendar's, or each calendar's of several.
    var events: [OpaquePointer] {
        switch icalcomponent_isa(root) {
        case ICAL_VEVENT_COMPONENT: return [root]
        case ICAL_XROOT_COMPONENT: return Self.children(of: root, ICAL_VCALENDAR_COMPONENT).flatMap { Self.children(of: $0, ICAL_VEVENT_COMPONENT) }
        default: return Self.children(of: root, ICAL_VEVENT_COMPONENT)
        }
    }

    private static func children(of parent: OpaquePointer, _ kind: icalcomponent_kind) -> [OpaquePointer] {
        var found: [OpaquePointer] = []
        var child = icalcomponent_get_first_component(parent, kind)
        while let current = child, found.count <= Holiday.Limits.events {
            found.append(current)
            child = icalcomponent_get_next_component(parent, kind)
        }
        return found
    }
}
