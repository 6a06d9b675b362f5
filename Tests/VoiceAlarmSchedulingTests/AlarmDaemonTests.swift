import Foundation
import Synchronization
import TestSupport
import Testing
import VoiceAlarmCore
import VoiceAlarmScheduling

/// A wall clock moved by hand. Sleepers wait until the test advances past their deadline.
final class TestClock: WallClock, @unchecked Sendable {
    private let state = Mutex<(now: Date, sleepers: [(Date, CheckedContinuation<Void, Never>)])>((Date(timeIntervalSince1970: 0), []))

    init(_ start: Date) { state.withLock { $0.now = start } }

    func now() -> Date { state.withLock { $0.now } }

    func sleep(until deadline: Date) async throws {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { s -> Bool in
                if deadline <= s.now { return true }
                s.sleepers.append((deadline, continuation))
                return false
            }
            if resumeNow { continuation.resume() }
        }
        try Task.checkCancellation()
    }

    /// Moves the clock to `date` (forwards or backwards) and wakes the sleepers it passed.
    func set(_ date: Date) {
        let woken = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.now = date
            let due = s.sleepers.filter { $0.0 <= date }.map(\.1)
            s.sleepers.removeAll { $0.0 <= date }
            return due
        }
        for continuation in woken { continuation.resume() }
    }

    /// Wakes every sleeper without moving the clock (as after a suspend the OS wakes us).
    func wakeAll() {
        let woken = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            defer { s.sleepers = [] }
            return s.sleepers.map(\.1)
        }
        for continuation in woken { continuation.resume() }
    }

    var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Waits until the daemon is asleep again (its work for the last wake-up done).
    func waitForSleeper() async {
        while sleeperCount == 0 { await Task.yield() }
    }
}

/// A value shared with the daemon's closures.
final class Box<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func withLock<R>(_ body: (inout Value) -> R) -> R { value.withLock { body(&$0) } }
}

/// What the daemon did.
final class DaemonLog: Sendable {
    let rang = Mutex<[(UUID, Date)]>([])
    let missed = Mutex<[(UUID, TimeInterval)]>([])
}

private let utc = TimeZone(identifier: "UTC")!
/// Monday 2027-01-04 06:00 UTC.
private let monday6 = Date(timeIntervalSince1970: 1799042400)  // date -u -d "2027-01-04 06:00" +%s

private func alarm(_ hour: Int, _ minute: Int, days: Weekdays = .everyDay) -> ScheduledAlarm {
    ScheduledAlarm(id: UUID(), configuration: .init(schedule: .weekly(AlarmTime(hour: hour, minute: minute), days: days), sound: .default))
}

@Suite("The embedded daemon, on an injected clock", .timeLimit(.minutes(1)))
struct AlarmDaemonTests {
    private func start(_ clock: TestClock, _ list: Box<[ScheduledAlarm]>, _ log: DaemonLog) -> Task<Void, Error> {
        let daemon = AlarmDaemon(
            clock: clock, timeZone: utc, pollInterval: 60,
            alarms: { list.withLock { $0 } },
            ring: { alarm, due in log.rang.withLock { $0.append((alarm.id, due)) } },
            missed: { alarm, _, late in log.missed.withLock { $0.append((alarm.id, late)) } })
        return Task { try await daemon.run() }
    }

    @Test("Clock fixture")
    func fixture() {
        #expect(LocalDate(monday6, in: utc) == LocalDate(parsing: "2027-01-04"))
        #expect(LocalDate(monday6, in: utc).weekday == .monday)
    }

    @Test("An alarm rings on time, and not again until its next day")
    func ringsOnTime() async {
        let clock = TestClock(monday6)
        let seven = alarm(7, 0)
        let list = Box([seven])
        let log = DaemonLog()
        let task = start(clock, list, log)
        await clock.waitForSleeper()
        clock.set(monday6.addingTimeInterval(3600))  // 07:00:00
        await clock.waitForSleeper()
        #expect(log.rang.withLock { $0.map(\.0) } == [seven.id])
        #expect(log.rang.withLock { $0.first?.1 } == monday6.addingTimeInterval(3600))
        clock.set(monday6.addingTimeInterval(3600 + 120))  // later the same morning: nothing more
        await clock.waitForSleeper()
        #expect(log.rang.withLock { $0.count } == 1)
        task.cancel()
        clock.wakeAll()
        _ = await task.result
    }

    @Test("An alarm added while the daemon runs is picked up without a restart")
    func picksUpNewAlarms() async {
        let clock = TestClock(monday6)
        let list = Box<[ScheduledAlarm]>([])
        let log = DaemonLog()
        let task = start(clock, list, log)
        await clock.waitForSleeper()
        let added = alarm(6, 10)
        list.withLock { $0.append(added) }
        clock.set(monday6.addingTimeInterval(60))  // a poll: the daemon reads the list again
        await clock.waitForSleeper()
        clock.set(monday6.addingTimeInterval(600))  // 06:10
        await clock.waitForSleeper()
        #expect(log.rang.withLock { $0.map(\.0) } == [added.id])
        task.cancel()
        clock.wakeAll()
        _ = await task.result
    }

    @Test(
        "After a suspend or a clock jump: under 10 minutes late rings, more is logged as missed",
        arguments: [(TimeInterval(599), true), (TimeInterval(600), false), (TimeInterval(10_800), false)])
    func missedWindow(_ lateness: TimeInterval, _ rings: Bool) async {
        let clock = TestClock(monday6)
        let seven = alarm(7, 0)
        let list = Box([seven])
        let log = DaemonLog()
        let task = start(clock, list, log)
        await clock.waitForSleeper()
        // Monotonic time stopped: the daemon wakes only now, well after its deadline.
        clock.set(monday6.addingTimeInterval(3600 + lateness))
        await clock.waitForSleeper()
        #expect(log.rang.withLock { $0.count } == (rings ? 1 : 0))
        #expect(log.missed.withLock { $0.count } == (rings ? 0 : 1))
        if !rings { #expect(log.missed.withLock { $0[0].1 } == lateness) }
        task.cancel()
        clock.wakeAll()
        _ = await task.result
    }

    @Test(
        "A restarted daemon finds what came due while none ran: rings under 10 minutes late, logs the rest",
        arguments: [(TimeInterval(300), true), (TimeInterval(900), false)])
    func restart(_ downUntil: TimeInterval, _ rings: Bool) async {
        // The previous run last looked at 06:50; this one starts downUntil after 07:00.
        let clock = TestClock(monday6.addingTimeInterval(3600 + downUntil))
        let seven = alarm(7, 0)
        let log = DaemonLog()
        let daemon = AlarmDaemon(
            clock: clock, timeZone: utc, pollInterval: 60, alarms: { [seven] },
            ring: { alarm, due in log.rang.withLock { $0.append((alarm.id, due)) } },
            missed: { alarm, _, late in log.missed.withLock { $0.append((alarm.id, late)) } },
            since: monday6.addingTimeInterval(3000))
        let task = Task { try await daemon.run() }
        await clock.waitForSleeper()
        #expect(log.rang.withLock { $0.count } == (rings ? 1 : 0))
        #expect(log.missed.withLock { $0.map(\.1) } == (rings ? [] : [downUntil]))
        task.cancel()
        clock.wakeAll()
        _ = await task.result
    }

    @Test("A clock set backwards rings nothing twice; a removed alarm does not ring")
    func clockBackwardsAndRemoval() async {
        let clock = TestClock(monday6)
        let seven = alarm(7, 0), eight = alarm(8, 0)
        let list = Box([seven, eight])
        let log = DaemonLog()
        let task = start(clock, list, log)
        await clock.waitForSleeper()
        clock.set(monday6.addingTimeInterval(3600))
        await clock.waitForSleeper()
        clock.set(monday6.addingTimeInterval(1800))  // back to 06:30
        await clock.waitForSleeper()
        list.withLock { $0.removeAll { $0.id == eight.id } }
        clock.set(monday6.addingTimeInterval(7200))  // 08:00: the removed alarm stays silent
        await clock.waitForSleeper()
        #expect(log.rang.withLock { $0.map(\.0) } == [seven.id])
        task.cancel()
        clock.wakeAll()
        _ = await task.result
    }

    @Test("Cancelling (SIGTERM) ends the run")
    func stops() async throws {
        let clock = TestClock(monday6)
        let task = start(clock, Box([alarm(7, 0)]), DaemonLog())
        await clock.waitForSleeper()
        task.cancel()
        clock.wakeAll()
        // The run ends (the time limit would catch a hang), and ends cleanly, not with an error.
        let result = await task.result
        if case .failure(let error) = result { Issue.record("the daemon ended with \(error)") }
    }
}

@Suite("The scheduled list as a stream of updates")
struct AlarmUpdatesTests {
    @Test("The embedded backend's stream yields the list, and again when it changes", .timeLimit(.minutes(1)))
    func updates() async throws {
        let dir = TemporaryDirectory("updates")
        let scheduler = try EmbeddedScheduler(dataDirectory: dir.path)
        let first = UUID()
        try scheduler.schedule(id: first, configuration: .init(schedule: .weekly(AlarmTime(hour: 7, minute: 0), days: [.monday]), sound: .default))
        var iterator = scheduler.updates(checkingEvery: .milliseconds(20)).makeAsyncIterator()
        #expect(await iterator.next()?.map(\.id) == [first])
        try scheduler.cancel(id: first)
        #expect(await iterator.next()?.isEmpty == true)
    }
}
