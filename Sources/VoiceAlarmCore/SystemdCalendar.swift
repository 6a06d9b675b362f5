import Foundation

/// `OnCalendar=` expressions for a schedule, as systemd timers read them.
///
/// systemd skips a local time that a DST change makes nonexistent (a 02:30 alarm on the
/// spring-forward day does not fire at all), while VoiceAlarm rings at the first valid minute
/// after it. So besides the regular expression, the next such gap day gets an extra, dated
/// expression for the minute it should ring at; reconciliation refreshes it after that day.
package enum SystemdCalendar {
    /// How far ahead to look for the next gap day.
    static let gapHorizonDays = 400

    /// The expressions for `schedule`, in local time of `timeZone`, looking for gaps after `now`.
    package static func expressions(for schedule: AlarmSchedule, in timeZone: TimeZone, now: Date) -> [String] {
        switch schedule {
        case .fixed(let date):
            return [stamp(date, TimeZone(identifier: "UTC")!) + " UTC"]
        case .once(let time, let date):
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            return [stamp(AlarmSchedule.resolve(time, on: date, calendar: calendar), timeZone)]
        case .weekly(let time, let days):
            let dayList = days == .everyDay ? "" : systemdDays(days) + " "
            var expressions = ["\(dayList)*-*-* \(two(time.hour)):\(two(time.minute)):00"]
            if let gap = nextGapFire(time, days: days, in: timeZone, after: now) {
                expressions.append(stamp(gap, timeZone))
            }
            return expressions
        }
    }

    /// The expressions for `configuration`: its schedule's, or, with days skipped, each ring
    /// before the day after the last skip as a dated expression of its own (the skipped ones are
    /// simply not there), then the weekly pattern from that day on. So the timer's next elapse —
    /// what `systemctl --user list-timers` shows — is the true next ring.
    package static func expressions(for configuration: AlarmConfiguration, in timeZone: TimeZone, now: Date) -> [String] {
        guard case .weekly(let time, let days) = configuration.schedule, let last = configuration.skips.lastDay else {
            return expressions(for: configuration.schedule, in: timeZone, now: now)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let resume = AlarmSchedule.nextDay(after: last, calendar: calendar)
        let resumeStart = calendar.date(from: DateComponents(year: resume.year, month: resume.month, day: resume.day))!
        var result: [String] = []
        var cursor = now
        while let fire = configuration.nextFire(after: cursor, in: timeZone), fire < resumeStart {
            result.append(stamp(fire, timeZone))
            cursor = fire
        }
        let dayList = days == .everyDay ? "" : systemdDays(days) + " "
        let clock = "\(two(time.hour)):\(two(time.minute)):00"
        // From `resume` on: the rest of its month, the rest of its year, the years after it.
        result.append("\(dayList)\(resume.year)-\(two(resume.month))-\(two(resume.day))..31 \(clock)")
        if resume.month < 12 { result.append("\(dayList)\(resume.year)-\(two(resume.month + 1))..12-* \(clock)") }
        result.append("\(dayList)\(resume.year + 1)..\(lastYear)-*-* \(clock)")
        if let gap = nextGapFire(time, days: days, in: timeZone, after: max(now, resumeStart)) { result.append(stamp(gap, timeZone)) }
        return result
    }

    /// The last year systemd's calendar expressions take.
    static let lastYear = 2199

    /// The next day on `days` whose `time` does not exist locally, as the instant VoiceAlarm
    /// rings instead (the first valid minute after it).
    static func nextGapFire(_ time: AlarmTime, days: Weekdays, in timeZone: TimeZone, after now: Date) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        // Only days with a transition can have a gap: walk the zone's transitions, not every day.
        var cursor = now
        let horizon = now.addingTimeInterval(Double(gapHorizonDays) * 86_400)
        while let transition = timeZone.nextDaylightSavingTimeTransition(after: cursor), transition < horizon {
            cursor = transition
            let day = LocalDate(transition, in: timeZone)
            guard days.contains(day.weekday) else { continue }
            let resolved = AlarmSchedule.resolve(time, on: day, calendar: calendar)
            let local = calendar.dateComponents([.hour, .minute], from: resolved)
            if local.hour != time.hour || local.minute != time.minute, resolved > now { return resolved }
        }
        return nil
    }

    /// `Mon,Wed,Fri`; ranges as systemd writes them are not needed, lists are valid.
    static func systemdDays(_ days: Weekdays) -> String {
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        return (0..<7).filter { days.contains(Weekdays(rawValue: 1 << $0)) }.map { names[$0] }.joined(separator: ",")
    }

    /// `2027-03-28 03:00:00` in `timeZone`.
    static func stamp(_ date: Date, _ timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
