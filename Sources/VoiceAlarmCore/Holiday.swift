import Foundation

/// A day an alarm set to skip holidays does not ring: its date, its name in the calendar it came
/// from (`Christmas Day`), and that calendar's name (what `holidays remove` names).
package struct Holiday: Hashable, Sendable, Codable {
    package var date: LocalDate
    package var name: String
    package var calendar: String

    package init(date: LocalDate, name: String, calendar: String) {
        self.date = date
        self.name = name
        self.calendar = calendar
    }

    /// How much of an iCalendar file is read: a public-holiday calendar is a few kilobytes and a
    /// few dozen events; a person's whole export may be larger. Past these, the file is refused.
    package enum Limits {
        /// The largest file read, in bytes.
        package static let bytes = 4 * 1024 * 1024
        /// The most events read from one file.
        package static let events = 5000
        /// The most days one file may give over the years imported.
        package static let days = 5000
        /// The most steps one recurrence is walked (a rule that never ends stops at the last year).
        package static let recurrenceSteps = 100_000
    }
}
