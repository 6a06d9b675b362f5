import Foundation

/// What `alarm skip` and `alarm unskip` make of an alarm's skips, and what they refuse: pure, so
/// every surface (the command line, the page) follows the same rules.
///
/// ```swift
/// let skips = try SkipRules.skip(.next, of: alarm, now: now, in: zone)     // tomorrow's ring skipped
/// ```
package enum SkipRules {
    /// How far ahead a day may be skipped: a year, so a systemd timer lists at most a year of
    /// dated rings before its pattern resumes.
    package static let horizonDays = 366

    /// What to skip.
    package enum Skip: Equatable, Sendable {
        /// The next ring, whichever day it falls on.
        case next
        /// These days.
        case dates([LocalDate])
        /// Every ring through this day (a pause).
        case until(LocalDate)
    }

    /// What to take back.
    package enum Unskip: Equatable, Sendable {
        /// The earliest skip still ahead (a skipped day, or the pause): "Undo".
        case next
        /// This day.
        case date(LocalDate)
        /// Every skip and the pause.
        case all
    }

    /// Why a skip or an unskip is refused.
    package enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        /// A one-off rings once: skipping it is turning it off.
        case oneOff(AlarmTime)
        /// The alarm is off: it has no ring to skip.
        case off
        /// The day has passed (or its ring today already has).
        case passed(LocalDate)
        /// The day is more than `horizonDays` ahead.
        case tooFar(LocalDate)
        /// The alarm does not ring on that day.
        case notARingDay(LocalDate)
        /// Nothing is skipped (`unskip` with nothing to take back).
        case nothingSkipped
        /// That day is not skipped.
        case notSkipped(LocalDate)

        package var description: String {
            switch self {
            case .oneOff(let time): "the alarm at \(time) rings once: turn it off ('alarm off') or remove it instead of skipping it"
            case .off: "the alarm is off: it has no ring to skip"
            case .passed(let day): "\(day) has passed (or its ring has)"
            case .tooFar(let day): "\(day) is more than a year ahead (\(SkipRules.horizonDays) days at most)"
            case .notARingDay(let day): "the alarm does not ring on \(day) (\(day.weekday.list))"
            case .nothingSkipped: "nothing is skipped"
            case .notSkipped(let day): "\(day) is not skipped"
            }
        }
    }

    /// The alarm's skips with `skip` added (passed ones dropped).
    /// - Throws: `Refusal`.
    /// `holidays`: the days imported, which the next ring skips already when the alarm skips them.
    package static func skip(_ skip: Skip, of alarm: Alarm, now: Date, in timeZone: TimeZone, holidays: Set<LocalDate> = []) throws(Refusal) -> Skips {
        guard alarm.date == nil else { throw .oneOff(alarm.time) }
        guard alarm.isOn else { throw .off }
        let today = LocalDate(now, in: timeZone)
        var skips = alarm.skips.ahead(of: today)
        switch skip {
        case .next:
            guard let fire = alarm.nextRing(after: now, in: timeZone, holidays: holidays) else { throw .off }
            skips.dates.insert(LocalDate(fire, in: timeZone))
        case .dates(let days):
            for day in days {
                try check(day, today: today)
                guard ringsAhead(alarm, on: day, now: now, in: timeZone) else {
                    throw alarm.days.contains(day.weekday) ? .passed(day) : .notARingDay(day)
                }
                skips.dates.insert(day)
            }
        case .until(let day):
            try check(day, today: today)
            skips.through = max(skips.through ?? day, day)
            skips.dates = skips.dates.filter { $0 > day }  // within the pause already
        }
        return skips
    }

    /// The alarm's skips without what `unskip` takes back (passed ones dropped).
    /// - Throws: `Refusal.nothingSkipped`, `.notSkipped`.
    package static func unskip(_ unskip: Unskip, of alarm: Alarm, now: Date, in timeZone: TimeZone) throws(Refusal) -> Skips {
        var skips = alarm.skips.ahead(of: LocalDate(now, in: timeZone))
        guard !skips.isEmpty else { throw .nothingSkipped }
        switch unskip {
        case .all:
            return Skips()
        case .date(let day):
            if skips.dates.remove(day) != nil { return skips }
            // A day inside the pause: it rings again from that day on (the pause ends the day before).
            guard let through = skips.through, day <= through, day >= LocalDate(now, in: timeZone) else { throw .notSkipped(day) }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let noon = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12))!
            let before = LocalDate(calendar.date(byAdding: .day, value: -1, to: noon)!, in: timeZone)
            skips.through = before >= LocalDate(now, in: timeZone) ? before : nil
            return skips
        case .next:
            // The pause, when there is one, is what comes first ("Resume"); else the earliest day ("Undo").
            if skips.through != nil {
                skips.through = nil
            } else if let earliest = skips.dates.min() {
                skips.dates.remove(earliest)
            }
            return skips
        }
    }

    private static func check(_ day: LocalDate, today: LocalDate) throws(Refusal) {
        guard day >= today else { throw .passed(day) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let from = calendar.date(from: DateComponents(year: today.year, month: today.month, day: today.day))!
        let to = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day))!
        guard to.timeIntervalSince(from) <= Double(horizonDays) * 86_400 else { throw .tooFar(day) }
    }

    /// Whether the alarm's schedule rings on `day` after `now`.
    private static func ringsAhead(_ alarm: Alarm, on day: LocalDate, now: Date, in timeZone: TimeZone) -> Bool {
        guard alarm.days.contains(day.weekday) else { return false }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return AlarmSchedule.resolve(alarm.time, on: day, calendar: calendar) > now
    }
}

extension SkipRules.Refusal: ClassifiedError {
    /// A rule of the alarm's days (409); a day out of reach is an input the person can fix.
    package var failureKind: FailureKind { .conflict }
    package var failureInput: String? {
        switch self {
        case .passed(let day), .tooFar(let day), .notARingDay(let day), .notSkipped(let day): day.description
        default: nil
        }
    }
}
