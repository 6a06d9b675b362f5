import Foundation

/// A set of days of the week, Monday first, as a user types them (`mon,wed-fri`, `weekdays`).
public struct Weekdays: OptionSet, Hashable, Sendable, Codable {
    /// One bit a day, Monday the lowest.
    public let rawValue: Int
    /// Days from their bits; bits past Sunday are dropped.
    public init(rawValue: Int) { self.rawValue = rawValue & 0x7F }

    /// Monday.
    public static let monday = Weekdays(rawValue: 1 << 0)
    /// Tuesday.
    public static let tuesday = Weekdays(rawValue: 1 << 1)
    /// Wednesday.
    public static let wednesday = Weekdays(rawValue: 1 << 2)
    /// Thursday.
    public static let thursday = Weekdays(rawValue: 1 << 3)
    /// Friday.
    public static let friday = Weekdays(rawValue: 1 << 4)
    /// Saturday.
    public static let saturday = Weekdays(rawValue: 1 << 5)
    /// Sunday.
    public static let sunday = Weekdays(rawValue: 1 << 6)
    /// All seven days (`daily`).
    public static let everyDay = Weekdays(rawValue: 0x7F)
    /// Monday to Friday (`weekdays`).
    public static let workDays: Weekdays = [.monday, .tuesday, .wednesday, .thursday, .friday]
    /// Saturday and Sunday (`weekends`).
    public static let weekend: Weekdays = [.saturday, .sunday]

    /// Short names in week order, as accepted and printed.
    package static let names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// Words that name a set of days, as accepted and as `compact` prints them.
    package static let groupNames: [(name: String, days: Weekdays)] = [("daily", .everyDay), ("weekdays", .workDays), ("weekends", .weekend)]

    /// The day for Foundation's `Calendar` weekday number (1 = Sunday … 7 = Saturday).
    package init(calendarWeekday: Int) {
        precondition((1...7).contains(calendarWeekday), "weekday \(calendarWeekday) out of 1...7")
        self.init(rawValue: 1 << ((calendarWeekday + 5) % 7))
    }

    /// Parses days as people write them, in any case: names (`mon`, `Monday`), ranges that run
    /// forward through the week (`mon-fri`), the groups `daily`, `weekdays` and `weekends`
    /// (also `everyday`, `weekday`, `weekend`), and comma-separated mixtures (`mon,wed-fri`).
    ///
    /// A range runs Monday to Sunday, so `fri-mon` is refused rather than guessed at: it may
    /// mean the long weekend or be a slip, and a wrong guess rings on the wrong days.
    package static func parse(_ text: String) -> Result<Weekdays, WeekdayParseError> {
        var days: Weekdays = []
        for word in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
            if let group = group(word) {
                days.formUnion(group)
                continue
            }
            let ends = word.split(separator: "-", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            switch ends.count {
            case 1:
                guard let index = dayIndex(word) else { return .failure(WeekdayParseError(word: word, reason: .notADay)) }
                days.insert(Weekdays(rawValue: 1 << index))
            case 2:
                guard let first = dayIndex(ends[0]) else { return .failure(WeekdayParseError(word: ends[0].isEmpty ? word : ends[0], reason: .notADay)) }
                guard let last = dayIndex(ends[1]) else { return .failure(WeekdayParseError(word: ends[1].isEmpty ? word : ends[1], reason: .notADay)) }
                guard first <= last else { return .failure(WeekdayParseError(word: word, reason: .backwards)) }
                for index in first...last { days.insert(Weekdays(rawValue: 1 << index)) }
            default:
                return .failure(WeekdayParseError(word: word, reason: .notADay))
            }
        }
        return days.isEmpty ? .failure(WeekdayParseError(word: text, reason: .notADay)) : .success(days)
    }

    /// `mon,wed,fri`: every day named, as schedulers and stored alarms spell them.
    package var list: String {
        Self.names.enumerated().filter { contains(Weekdays(rawValue: 1 << $0.offset)) }.map(\.element).joined(separator: ",")
    }

    /// A short way to write the days for a person: `daily`, `weekdays`, `weekends`, or runs
    /// of three or more days as ranges (`mon-wed,sat`). `parse` reads it back to the same days.
    public var compact: String {
        if let group = Self.groupNames.first(where: { $0.days == self }) { return group.name }
        var parts: [String] = []
        var index = 0
        while index < 7 {
            guard contains(Weekdays(rawValue: 1 << index)) else { index += 1; continue }
            var end = index
            while end + 1 < 7, contains(Weekdays(rawValue: 1 << (end + 1))) { end += 1 }
            switch end - index {
            case 0: parts.append(Self.names[index])
            case 1: parts += [Self.names[index], Self.names[end]]
            default: parts.append("\(Self.names[index])-\(Self.names[end])")
            }
            index = end + 1
        }
        return parts.joined(separator: ",")
    }

    private static func group(_ word: String) -> Weekdays? {
        switch word {
        case "daily", "everyday", "every-day": .everyDay
        case "weekdays", "weekday", "workdays": .workDays
        case "weekends", "weekend": .weekend
        default: nil
        }
    }

    /// The index (Monday = 0) of a day named by at least its first three letters.
    private static func dayIndex(_ word: String) -> Int? {
        guard word.count >= 3 else { return nil }
        return names.firstIndex(where: { word.hasPrefix($0) && fullName($0).hasPrefix(word) })
    }

    private static func fullName(_ short: String) -> String {
        [
            "mon": "monday", "tue": "tuesday", "wed": "wednesday", "thu": "thursday",
            "fri": "friday", "sat": "saturday", "sun": "sunday",
        ][short]!
    }
}

/// Days that cannot be read: the offending word, and why.
package struct WeekdayParseError: Error, Equatable, CustomStringConvertible {
    package enum Reason: Sendable, Equatable {
        /// Not a day name, a range or a group.
        case notADay
        /// A range whose first day comes after its last in a Monday-first week (`fri-mon`).
        case backwards
    }

    package var word: String
    package var reason: Reason

    package init(word: String, reason: Reason = .notADay) {
        self.word = word
        self.reason = reason
    }

    package var description: String {
        switch reason {
        case .notADay:
            "'\(word)' is not a day (mon..sun, a range such as mon-fri, or daily, weekdays, weekends)"
        case .backwards:
            "'\(word)' runs backwards: ranges run Monday to Sunday, so write the days across the week's end as a list (e.g. fri-sun,mon)"
        }
    }
}
