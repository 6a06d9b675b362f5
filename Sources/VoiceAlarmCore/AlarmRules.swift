import Foundation

/// The rules a new alarm must pass, from the shipping app: no two alarms in the same minute on a
/// shared day (two alarms ringing at once make "Stop" look broken), at most five per target,
/// and a date that has not passed.
package enum AlarmRules {
    package static let maximumPerTarget = 5

    /// Why `candidate` cannot be added next to `existing`.
    package enum Violation: Error, Equatable, CustomStringConvertible {
        case tooMany(target: Target, count: Int)
        case overlaps(Alarm)
        case inThePast(LocalDate, AlarmTime)

        package var description: String {
            switch self {
            case .tooMany(let target, let count):
                "\(target) already has \(count) alarms (at most \(AlarmRules.maximumPerTarget) per target)"
            case .overlaps(let other):
                "overlaps alarm \(other.idString) (\(other.target) at \(other.time) \(other.date.map(\.description) ?? other.days.list)): two alarms in the same minute make Stop look broken"
            case .inThePast: "that date and time have already passed"
            }
        }
    }

    /// The first rule `candidate` breaks, or nil. Finished one-offs are ignored.
    package static func violation(adding candidate: Alarm, to existing: [Alarm], now: Date, timeZone: TimeZone) -> Violation? {
        if candidate.date != nil, candidate.isFinished(at: now, in: timeZone) {
            return .inThePast(candidate.date!, candidate.time)
        }
        let live = existing.filter { !$0.isFinished(at: now, in: timeZone) }
        let sameTarget = live.filter { $0.target == candidate.target }
        if sameTarget.count >= maximumPerTarget { return .tooMany(target: candidate.target, count: sameTarget.count) }
        if let clash = live.first(where: { $0.overlaps(candidate) }) { return .overlaps(clash) }
        return nil
    }

    /// The date a one-off without `--date` gets: the next day on which `time` is still ahead.
    package static func nextOccurrenceDate(of time: AlarmTime, after now: Date, in timeZone: TimeZone) -> LocalDate {
        let fire = AlarmSchedule.weekly(time, days: .everyDay).nextFire(after: now, in: timeZone)!
        return LocalDate(fire, in: timeZone)
    }
}

extension AlarmRules.Violation: ClassifiedError {
    /// A rule of the library (409).
    package var failureKind: FailureKind { .conflict }
    package var failureInput: String? { nil }
}
