import Foundation

/// The days an alarm does not ring though its schedule says it would: dates skipped one by one
/// (`alarm skip`), and a pause through a date (`alarm skip --until`). Days are local dates of
/// the library's time zone, the day the ring would fall on. Skips that have passed mean nothing
/// and are dropped (`ahead(of:)`).
///
/// ```swift
/// let skips = Skips(dates: [LocalDate(year: 2026, month: 12, day: 9)])
/// skips.nextFire(of: .weekly(time, days: .workDays), after: now, in: zone)   // Thursday's, not Wednesday's
/// ```
package struct Skips: Hashable, Sendable, Codable {
    /// Days skipped one by one.
    package var dates: Set<LocalDate>
    /// Every day through this one is skipped (a pause), when set.
    package var through: LocalDate?

    package init(dates: Set<LocalDate> = [], through: LocalDate? = nil) {
        self.dates = dates
        self.through = through
    }

    /// Whether nothing is skipped.
    package var isEmpty: Bool { dates.isEmpty && through == nil }

    /// Whether a ring that falls on `day` is skipped.
    package func excludes(_ day: LocalDate) -> Bool { dates.contains(day) || through.map { day <= $0 } == true }

    /// Only what is still ahead of `today` (today included): passed skips are forgotten.
    package func ahead(of today: LocalDate) -> Skips {
        Skips(dates: dates.filter { $0 >= today }, through: through.flatMap { $0 >= today ? $0 : nil })
    }

    /// The last day any of it skips, or nil when nothing is skipped.
    package var lastDay: LocalDate? { (Array(dates) + [through].compactMap { $0 }).max() }

    /// How many rings a search walks past at most: a weekly alarm on one day skipped for years
    /// would take that many steps, so a pause is jumped over whole rather than walked.
    static let searchLimit = 1000

    /// The first ring of `schedule` strictly after `instant` that is not skipped, or nil when
    /// none is (a one-off whose day is skipped never rings).
    package func nextFire(of schedule: AlarmSchedule, after instant: Date, in timeZone: TimeZone) -> Date? {
        var cursor = instant
        if let through, LocalDate(instant, in: timeZone) <= through {
            // Past the pause at once: the first instant of the day after it.
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let after = AlarmSchedule.nextDay(after: through, calendar: calendar)
            let start = calendar.date(from: DateComponents(year: after.year, month: after.month, day: after.day))!.addingTimeInterval(-1)
            cursor = max(cursor, start)
        }
        for _ in 0..<Self.searchLimit {
            guard let fire = schedule.nextFire(after: cursor, in: timeZone) else { return nil }
            if !excludes(LocalDate(fire, in: timeZone)) { return fire }
            cursor = fire
        }
        return nil
    }

    /// The rings of `schedule` in `(start, end]`, each with whether it is skipped.
    package func fires(of schedule: AlarmSchedule, after start: Date, through end: Date, in timeZone: TimeZone) -> [(fire: Date, skipped: Bool)] {
        schedule.fires(after: start, through: end, in: timeZone).map { ($0, excludes(LocalDate($0, in: timeZone))) }
    }

    // Encoded as `{"dates": ["2026-12-09"], "through": "2026-12-12"}`, keys left out when empty.
    private enum Keys: String, CodingKey { case dates, through }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        dates = Set(try c.decodeIfPresent([LocalDate].self, forKey: .dates) ?? [])
        through = try c.decodeIfPresent(LocalDate.self, forKey: .through)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        if !dates.isEmpty { try c.encode(dates.sorted(), forKey: .dates) }
        try c.encodeIfPresent(through, forKey: .through)
    }
}
