import Foundation

/// A calendar date without a time zone (`2027-03-28`).
package struct LocalDate: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    package var year: Int
    package var month: Int
    package var day: Int

    package init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`; nil when malformed or not a real date (2027-02-30).
    /// Why `text` is not a date, in the words every front end uses.
    package static func refusal(_ text: String) -> String { "'\(text)' is not a date (YYYY-MM-DD)" }

    package init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        var components = DateComponents(year: year, month: month, day: day)
        components.calendar = Self.gregorian
        guard components.isValidDate else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Decodes a date kept by a scheduler or a file (which anyone may edit), refusing one that is not a real date.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let year = try container.decode(Int.self, forKey: .year), month = try container.decode(Int.self, forKey: .month)
        let day = try container.decode(Int.self, forKey: .day)
        var components = DateComponents(year: year, month: month, day: day)
        components.calendar = Self.gregorian
        guard (1...9999).contains(year), components.isValidDate else {
            throw DecodingError.dataCorruptedError(forKey: .day, in: container, debugDescription: "\(year)-\(month)-\(day) is not a date")
        }
        self.init(year: year, month: month, day: day)
    }

    /// The date an instant falls on in `timeZone`.
    package init(_ date: Date, in timeZone: TimeZone) {
        var calendar = Self.gregorian
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        self.init(year: c.year!, month: c.month!, day: c.day!)
    }

    /// The day of the week this date falls on.
    package var weekday: Weekdays {
        var calendar = Self.gregorian
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
        return Weekdays(calendarWeekday: calendar.component(.weekday, from: date))
    }

    package var description: String { String(format: "%04d-%02d-%02d", year, month, day) }

    package static func < (a: LocalDate, b: LocalDate) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }

    static let gregorian = Calendar(identifier: .gregorian)
}
