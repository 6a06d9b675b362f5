import Foundation

/// What to do with an alarm whose time came while nothing could ring it (the machine asleep,
/// the daemon down, the clock changed): ring it if it is only a little late, else log it as
/// missed — ringing an hour late is usually wrong. Both backends follow this.
package enum MissedAlarmPolicy {
    /// An alarm less late than this still rings.
    package static let window: TimeInterval = 600

    package enum Decision: Equatable, Sendable {
        case ring
        case missed(lateBy: TimeInterval)
    }

    package static func decide(dueAt due: Date, now: Date) -> Decision {
        let late = now.timeIntervalSince(due)
        return late < window ? .ring : .missed(lateBy: late)
    }
}

extension AlarmSchedule {
    /// The latest time this schedule rang at or before `instant`, or nil when it never has
    /// (looking back at most eight days, which covers every weekly schedule).
    package func previousFire(atOrBefore instant: Date, in timeZone: TimeZone) -> Date? {
        switch self {
        case .fixed(let date):
            return date <= instant ? date : nil
        case .once:
            let fire = nextFire(after: instant.addingTimeInterval(-9 * 86_400), in: timeZone)
            return fire.flatMap { $0 <= instant ? $0 : nil }
        case .weekly:
            var latest: Date?
            var cursor = instant.addingTimeInterval(-8 * 86_400)
            while let fire = nextFire(after: cursor, in: timeZone), fire <= instant {
                latest = fire
                cursor = fire
            }
            return latest
        }
    }

    /// Every time this schedule rings in `(start, end]`, in order.
    package func fires(after start: Date, through end: Date, in timeZone: TimeZone) -> [Date] {
        var result: [Date] = []
        var cursor = start
        while let fire = nextFire(after: cursor, in: timeZone), fire <= end {
            result.append(fire)
            cursor = fire
        }
        return result
    }
}
