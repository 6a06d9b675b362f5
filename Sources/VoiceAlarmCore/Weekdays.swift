import Foundation

/// A set of days of the week, Monday first, as a user types them (`mon,wed,fri`).
public struct Weekdays: OptionSet, Hashable, Sendable, Codable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue & 0x7F }

    public static let monday = Weekdays(rawValue: 1 << 0)
    public static let tuesday = Weekdays(rawValue: 1 << 1)
    public static let wednesday = Weekdays(rawValue: 1 << 2)
    public static let thursday = Weekdays(rawValue: 1 << 3)
    public static let friday = Weekdays(rawValue: 1 << 4)
    public static let saturday = Weekdays(rawValue: 1 << 5)
    public static let sunday = Weekdays(rawValue: 1 << 6)
    public static let everyDay = Weekdays(rawValue: 0x7F)

    /// Short names in week order, as accepted and printed.
    public static let names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// The day for Foundation's `Calendar` weekday number (1 = Sunday … 7 = Saturday).
    public init(calendarWeekday: Int) {
        precondition((1...7).contains(calendarWeekday), "weekday \(calendarWeekday) out of 1...7")
        self.init(rawValue: 1 << ((calendarWeekday + 5) % 7))
    }

    /// Parses `mon,tue,…` (also full names, any case). Nil with the offending word otherwise.
    public static func parse(_ text: String) -> Result<Weekdays, WeekdayParseError> {
        var days: Weekdays = []
        for word in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
            guard word.count >= 3, let index = names.firstIndex(where: { word.hasPrefix($0) && fullName($0).hasPrefix(word) }) else {
                return .failure(WeekdayParseError(word: word))
            }
            days.insert(Weekdays(rawValue: 1 << index))
        }
        return days.isEmpty ? .failure(WeekdayParseError(word: text)) : .success(days)
    }

    /// `mon,wed,fri`.
    public var list: String {
        Self.names.enumerated().filter { contains(Weekdays(rawValue: 1 << $0.offset)) }.map(\.element).joined(separator: ",")
    }

    private static func fullName(_ short: String) -> String {
        ["mon": "monday", "tue": "tuesday", "wed": "wednesday", "thu": "thursday",
         "fri": "friday", "sat": "saturday", "sun": "sunday"][short]!
    }
}

/// A day name that is not one.
public struct WeekdayParseError: Error, Equatable {
    public var word: String
}


