import Foundation
import VoiceAlarmCalendar
import VoiceAlarmCore
import VoiceAlarmStore

/// The holidays alarms may skip: imported from iCalendar files (libical, `HolidayCalendar`),
/// listed, removed; each change re-schedules the alarms that skip holidays, so they ring at
/// their true next ring at once.
package final class HolidayBook {
    let store: LibraryStore
    let sync: ScheduleSync
    let now: @Sendable () -> Date
    let timeZone: TimeZone

    init(store: LibraryStore, sync: ScheduleSync, now: @escaping @Sendable () -> Date, timeZone: TimeZone) {
        self.store = store
        self.sync = sync
        self.now = now
        self.timeZone = timeZone
    }

    /// Why holidays cannot be removed.
    package enum Refusal: ClassifiedError, Equatable, Sendable, CustomStringConvertible {
        /// No calendar of that name was imported.
        case unknownCalendar(String, known: [String])
        /// No holiday is imported at all.
        case noneImported

        package var failureKind: FailureKind { .notFound }
        package var failureInput: String? {
            if case .unknownCalendar(let name, _) = self { return name }
            return nil
        }
        package var description: String {
            switch self {
            case .unknownCalendar(let name, let known):
                "no holidays named '\(name)'" + (known.isEmpty ? "" : " (imported: \(known.joined(separator: ", ")))")
            case .noneImported: "no holidays are imported"
            }
        }
    }

    /// What an import did.
    package struct Imported: Sendable {
        package var calendar: String
        package var holidays: [Holiday]
        package var years: ClosedRange<Int>
        /// Whether it replaced a calendar of the same name.
        package var replaced: Bool
        /// The alarms re-scheduled (those that skip holidays).
        package var rescheduled: [UUID]
    }

    /// Imports the holidays of the iCalendar file at `path` over `years` (this year and the
    /// next by default), as the calendar `name` (the file's name without `.ics` by default),
    /// replacing one imported before under that name.
    /// - Throws: `CalendarError` for a file that gives none, with nothing changed.
    package func importCalendar(_ path: String, name: String? = nil, years: ClosedRange<Int>? = nil) throws -> Imported {
        let thisYear = LocalDate(now(), in: timeZone).year
        let years = years ?? thisYear...(thisYear + 1)
        let calendar = name ?? ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let holidays = try HolidayCalendar.read(path, from: years.lowerBound, through: years.upperBound, name: calendar)
        let replaced = try store.transaction {
            let existed = try !store.holidays().filter { $0.calendar == calendar }.isEmpty
            try store.replaceHolidays(of: calendar, with: holidays)
            return existed
        }
        let ids = try store.alarmsSkippingHolidays()
        _ = try sync.refresh(ids)
        return Imported(calendar: calendar, holidays: holidays, years: years, replaced: replaced, rescheduled: ids)
    }

    /// Every holiday imported, by date (of `year` alone when given).
    package func list(year: Int? = nil) throws -> [Holiday] { try store.holidays(year: year) }

    /// Removes the calendar `name`, or every holiday; how many days went. The alarms that skip
    /// holidays are re-scheduled.
    /// - Throws: `Refusal` when there is nothing of that name (or nothing at all).
    package func remove(_ name: String?) throws -> Int {
        let known = Set(try store.holidays().map(\.calendar)).sorted()
        guard !known.isEmpty else { throw Refusal.noneImported }
        if let name, !known.contains(name) { throw Refusal.unknownCalendar(name, known: known) }
        let removed = try store.transaction { try store.removeHolidays(of: name) }
        _ = try sync.refresh(try store.alarmsSkippingHolidays())
        return removed
    }
}
