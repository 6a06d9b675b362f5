import Foundation
import VoiceAlarmCore

/// The embedded backend's ringer: sleeps until the next alarm, rings it, and picks up any change
/// to the scheduled list (new, removed, re-scheduled alarms, rebuilt sounds) without a restart,
/// because it reads the list again after every wake-up.
///
/// Alarms that came due while it could not look (asleep, stopped, the clock moved) ring if they
/// are less than ten minutes late and are logged as missed otherwise (`MissedAlarmPolicy`).
///
/// ```swift
/// let daemon = AlarmDaemon(clock: SystemWallClock(), timeZone: .current,
///                          alarms: { try EmbeddedScheduler(dataDirectory: dir).alarms() },
///                          ring: { alarm, due in spawnRing(alarm.id) }, missed: { alarm, due, late in log(…) })
/// try await daemon.run()
/// ```
package final class AlarmDaemon: Sendable {
    let clock: any WallClock
    let timeZone: TimeZone
    let alarms: @Sendable () throws -> [ScheduledAlarm]
    let ring: @Sendable (ScheduledAlarm, Date) -> Void
    let missed: @Sendable (ScheduledAlarm, Date, TimeInterval) -> Void
    let skipped: @Sendable (ScheduledAlarm, Date) -> Void
    let trouble: @Sendable (Error) -> Void
    let since: Date?
    let lastKnown: [ScheduledAlarm]
    let looked: @Sendable (Date) -> Void
    /// The longest the daemon sleeps before it reads the list again.
    package let pollInterval: TimeInterval
    /// How far back a restarted daemon looks for alarms it missed while it was down.
    package static let lookBack: TimeInterval = 86_400

    /// - Parameters:
    ///   - alarms: reads the scheduled list (called after every wake-up).
    ///   - ring: rings an alarm that came due at the given time.
    ///   - missed: logs an alarm that came due too long ago to ring.
    ///   - skipped: logs a ring the person skipped, as its time passes (it does not ring).
    ///   - trouble: reports a failure to read the list; the daemon goes on with the last list it
    ///     read (a damaged or locked list never silences alarms that were scheduled).
    ///   - lastKnown: the list to ring from until the first read succeeds (the previous run's).
    ///   - since: when a previous run last looked, so alarms due while no daemon ran are found
    ///     (at most `lookBack` ago); nil to start from now.
    ///   - looked: told the time of every look, to be remembered for the next run.
    package init(
        clock: any WallClock, timeZone: TimeZone, pollInterval: TimeInterval = 15,
        alarms: @escaping @Sendable () throws -> [ScheduledAlarm],
        ring: @escaping @Sendable (ScheduledAlarm, Date) -> Void,
        missed: @escaping @Sendable (ScheduledAlarm, Date, TimeInterval) -> Void,
        skipped: @escaping @Sendable (ScheduledAlarm, Date) -> Void = { _, _ in },
        trouble: @escaping @Sendable (Error) -> Void = { _ in },
        lastKnown: [ScheduledAlarm] = [],
        since: Date? = nil, looked: @escaping @Sendable (Date) -> Void = { _ in }
    ) {
        self.lastKnown = lastKnown
        self.since = since
        self.looked = looked
        self.clock = clock
        self.timeZone = timeZone
        self.pollInterval = pollInterval
        self.alarms = alarms
        self.ring = ring
        self.missed = missed
        self.skipped = skipped
        self.trouble = trouble
    }

    /// Runs until the task is cancelled (SIGTERM).
    package func run() async throws {
        let start = clock.now()
        var lastLook = since.map { max($0, start.addingTimeInterval(-Self.lookBack)) } ?? start
        var scheduled = lastKnown
        while !Task.isCancelled {
            let now = clock.now()
            do { scheduled = try alarms() } catch { trouble(error) }
            if now > lastLook { handleDue(scheduled, after: lastLook, through: now) }
            lastLook = now
            looked(now)
            let next = scheduled.compactMap { $0.configuration.nextFire(after: now, in: timeZone) }.min()
            let deadline = min(next ?? .distantFuture, now.addingTimeInterval(pollInterval))
            do { try await clock.sleep(until: deadline, alarmAt: next) } catch { return }
        }
    }

    /// Rings or logs every alarm that came due in `(start, end]`: only the latest fire of each
    /// alarm can ring; earlier ones in the same stretch are missed; skipped ones are logged as
    /// skipped, never rung.
    func handleDue(_ scheduled: [ScheduledAlarm], after start: Date, through end: Date) {
        for alarm in scheduled {
            let all = alarm.configuration.skips.fires(of: alarm.configuration.schedule, after: start, through: end, in: timeZone)
            for passed in all where passed.skipped { skipped(alarm, passed.fire) }
            let fires = all.filter { !$0.skipped }.map(\.fire)
            guard let latest = fires.last else { continue }
            for earlier in fires.dropLast() { missed(alarm, earlier, end.timeIntervalSince(earlier)) }
            switch MissedAlarmPolicy.decide(dueAt: latest, now: end) {
            case .ring: ring(alarm, latest)
            case .missed(let late): missed(alarm, latest, late)
            }
        }
    }
}
