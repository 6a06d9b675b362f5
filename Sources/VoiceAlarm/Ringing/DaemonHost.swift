import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmScheduling
import VoiceAlarmStore

/// `voicealarm daemon`: rings the embedded scheduler's alarms for one data dir. Holds the
/// data dir's daemon lock, reconciles at start, remembers when it last looked (so alarms due
/// while no daemon ran are found after a restart) and the last list it read, and starts each
/// ring as its own process, naming the alarm's voice file so the ring needs no database.
///
/// A library that cannot be opened (a damaged or locked database, a full or read-only disk)
/// does not stop the daemon: it starts degraded, rings from the scheduler's list — or, when
/// that cannot be read either, from the last list it read — and says so.
///
/// ```swift
/// let host = try DaemonHost(location: location, options: .init(), say: { print($0.isWarning ? "warning" : "note", $0) }, open: { try LibraryOpener.open(location).0 })
/// host.run()          // until stop() (SIGTERM, Ctrl-C)
/// ```
package final class DaemonHost: Sendable {
    package struct Options: Sendable {
        /// Re-read the alarms at least this often, in seconds.
        package var pollSeconds = 15.0
        /// The longest ring, in seconds.
        package var maxRingSeconds = 600.0
        /// The ALSA device rings play on; nil for the library's remembered one (`settings device`).
        package var device: String?
        /// The volume ramp of each ring, in seconds; nil for the library's remembered one (`settings ramp`).
        package var rampSeconds: Double?
        package init() {}
    }

    /// Why the daemon cannot run for this library.
    package enum Refusal: Error, CustomStringConvertible {
        case notEmbedded
        package var description: String { "the daemon rings the embedded scheduler's alarms; this data dir uses systemd timers" }
    }

    /// What the start-up reconcile did (nothing, when degraded), and how many alarms the daemon watches.
    package let startReport: ReconcileReport
    /// How many alarms the embedded scheduler held at start.
    package let watched: Int
    /// The library the daemon rings for.
    package let dataDirectory: String
    /// Why the daemon runs degraded, when it does (the library could not be opened).
    package let degraded: String?
    /// Why its sleeps cannot wake a suspended machine, when they cannot.
    package let cannotWake: WakeProblem?
    private let daemon: AlarmDaemon
    private let launcher: RingLauncher
    private let lock: DaemonLock?
    /// Answers the page's test rings: its folder watched, so a request is rung at once.
    private let testRings: TestRingDesk
    private let testRingWatch: FolderWatch?
    private let say: @Sendable (DaemonNotice) -> Void
    private let now: @Sendable () -> Date
    private let state = Locked<(task: Task<Void, Never>?, stopped: Bool)>((nil, false))

    /// The last list the daemon read, kept in the data dir for a restart that cannot read one.
    static let lastListFile = "daemon-last-list.json"
    /// Present while a daemon runs degraded, saying why (for `doctor`).
    static let degradedFile = "daemon-degraded"

    /// Takes the lock and reconciles; the daemon starts with `run()`. The steps: open the library
    /// (or find what can be read without it: `opening`), choose the clock, open the event log,
    /// record whether it runs degraded, and make the daemon over the scheduler's list (`daemon`).
    /// - Parameter open: opens the library normally; when it throws, the daemon runs degraded.
    /// - Throws: `Refusal.notEmbedded` for a systemd data dir; `SchedulerError.daemonRunning` when
    ///   another daemon holds the lock.
    package init(
        location: LibraryLocation, options: Options, say: @escaping @Sendable (DaemonNotice) -> Void,
        open: () throws -> AlarmService
    ) throws {
        let dataDirectory = location.dataDirectory
        self.dataDirectory = dataDirectory
        let opened = try Self.opening(location, open: open)
        degraded = opened.degraded
        lock = opened.lock
        startReport = opened.report
        let lastKnown =
            FileSystem.contents("\(dataDirectory)/\(Self.lastListFile)")
            .flatMap { try? JSONDecoder().decode([ScheduledAlarm].self, from: $0) } ?? []
        watched = (try? EmbeddedScheduler.scheduledAlarms(in: dataDirectory).count) ?? lastKnown.count
        if let unrecorded = opened.lock?.pidNotRecorded { say(.pidNotRecorded("\(unrecorded)")) }
        // The daemon's time is its clock's: the alarm clock when it may wake the machine.
        let clock: any WallClock
        (clock, cannotWake) = Self.clock(executable: location.executable)
        let log = Self.eventLog(in: dataDirectory, clock: clock, say: say)
        Self.record(degraded: opened.degraded, in: dataDirectory, say: say, log: log)
        let launcher = RingLauncher(
            executable: location.executable, dataDirectory: dataDirectory,
            soundsDirectory: opened.soundsDirectory, device: options.device, ramp: options.rampSeconds,
            maxSeconds: options.maxRingSeconds, now: { clock.now() })
        self.launcher = launcher
        self.say = say
        now = { clock.now() }
        if let cannotWake { say(.cannotWake(cannotWake)) }
        testRings = TestRingDesk(dataDirectory: dataDirectory)
        do {
            try FileSystem.makeDirectory(testRings.directory, permissions: 0o700)
            testRingWatch = try FolderWatch(testRings.directory)
        } catch {
            testRingWatch = nil
            if opened.degraded == nil { say(.testRingsUnwatched("\(error)")) }
        }
        daemon = Self.daemon(
            in: dataDirectory, clock: clock, timeZone: opened.timeZone, pollInterval: options.pollSeconds,
            lastKnown: lastKnown, launcher: launcher, say: say, log: log, testRings: testRingWatch == nil ? testRings : nil)
    }

    /// What the daemon starts from: the library when it opens (reconciled), else what can be read
    /// without it, the lock, and why it runs degraded.
    private struct Opened {
        var soundsDirectory: String
        var timeZone = TimeZone.current
        var report = ReconcileReport()
        var degraded: String?
        var lock: DaemonLock?
    }

    /// Opens the library and takes the lock. One daemon per data dir, whatever state the library
    /// is in: another daemon, or a link in the lock's place, is refused; a lock the machine cannot
    /// give (read-only, full) is not, and neither is a library that does not open.
    private static func opening(_ location: LibraryLocation, open: () throws -> AlarmService) throws -> Opened {
        let dataDirectory = location.dataDirectory
        var opened = Opened(soundsDirectory: "\(dataDirectory)/Sounds")
        var service: AlarmService?
        do { service = try open() } catch { opened.degraded = "the library cannot be opened (\(error))" }
        if let service, !service.scheduler.ringsThroughDaemon { throw Refusal.notEmbedded }
        func degrade(_ reason: String) { opened.degraded = (opened.degraded.map { $0 + "; " } ?? "") + reason }
        do {
            opened.lock = try DaemonLock(dataDirectory: dataDirectory)
        } catch SchedulerError.lockUnavailable(let path, let reason) {
            degrade("the daemon's lock cannot be taken (\(path): \(reason))")
        }
        guard let service else {
            if let store = try? LibraryStore(readingOnly: dataDirectory), let remembered = try? store.settings().soundsDirectory {
                opened.soundsDirectory = remembered  // read without writing, so the rings' --sound names the right folder
            }
            return opened
        }
        opened.soundsDirectory = service.soundsDirectory
        opened.timeZone = service.timeZone
        do { opened.report = try service.sync.reconcile() } catch { degrade("the start-up reconcile failed (\(error))") }
        return opened
    }

    /// The alarm clock when this process may use it, else the wall clock, and why alarms cannot
    /// wake the machine then.
    private static func clock(executable: String) -> (any WallClock, WakeProblem?) {
        do {
            let timers = try AlarmTimerClock(executable: executable)
            return (timers, timers.cannotWake)
        } catch {
            return (SystemWallClock(), .noTimer("\(error)"))
        }
    }

    /// The daemon's line in the event log. A line the log cannot take never stops the daemon:
    /// the first failure is said, the rest are not repeated.
    private static func eventLog(
        in dataDirectory: String, clock: any WallClock,
        say: @escaping @Sendable (DaemonNotice) -> Void
    ) -> @Sendable (String) -> Void {
        let events = EventLog(dataDirectory: dataDirectory)
        let failed = Locked(false)
        return { message in
            do { try events.record(message, at: clock.now()) } catch {
                let first = failed.withLock { failed in
                    defer { failed = true }
                    return !failed
                }
                if first { say(.eventLogUnwritable("\(error)")) }
            }
        }
    }

    /// Says and logs why the daemon runs degraded, and leaves it in the data dir for `doctor`
    /// (or removes an earlier run's note).
    private static func record(
        degraded: String?, in dataDirectory: String, say: @Sendable (DaemonNotice) -> Void,
        log: @Sendable (String) -> Void
    ) {
        let path = "\(dataDirectory)/\(degradedFile)"
        guard let degraded else {
            FileSystem.remove(path)
            return
        }
        say(.degraded(degraded))
        log("daemon started degraded: \(degraded)")
        try? FileSystem.atomicWrite(Data(degraded.utf8), to: path, permissions: 0o600)
    }

    /// The daemon over the embedded scheduler's list: the last list read is kept for a restart
    /// that cannot read one, when it last looked is kept so alarms due meanwhile are found, and
    /// each ring is started as its own process. `testRings`, when the folder cannot be watched, is
    /// looked at on every wake-up instead.
    private static func daemon(
        in dataDirectory: String, clock: any WallClock, timeZone zone: TimeZone, pollInterval: Double,
        lastKnown: [ScheduledAlarm], launcher: RingLauncher, say: @escaping @Sendable (DaemonNotice) -> Void,
        log: @escaping @Sendable (String) -> Void, testRings: TestRingDesk?
    ) -> AlarmDaemon {
        let lastListPath = "\(dataDirectory)/\(lastListFile)"
        let lookFile = "\(dataDirectory)/daemon-last-look"
        let lastLook = FileSystem.text(lookFile)
            .flatMap { TimeInterval($0.trimmingCharacters(in: .whitespacesAndNewlines)) }.map(Date.init(timeIntervalSince1970:))
        let remembered = Locked(lastKnown)
        let window = Int(MissedAlarmPolicy.window / 60)
        let journal = AlarmEventJournal(dataDirectory: dataDirectory)
        // An event for whoever follows the alarms; best effort, as the log line beside it.
        let note: @Sendable (AlarmEvent.Kind, UUID, Date) -> Void = { kind, id, due in
            var event = AlarmEvent(kind, alarm: Snooze.isScheduleID(id) ? Snooze.scheduleID(for: id) : id, at: clock.now())
            event.due = due
            try? journal.record(event)
        }
        return AlarmDaemon(
            clock: clock, timeZone: zone, pollInterval: pollInterval,
            alarms: {
                // Test rings wait for this look when their folder cannot be watched.
                if let testRings { answerTestRing(testRings, launcher: launcher, now: clock.now(), say: say) }
                let list = try EmbeddedScheduler.scheduledAlarms(in: dataDirectory)
                let changed = remembered.withLock { known in
                    defer { known = list }
                    return known != list
                }
                if changed, let data = try? JSONEncoder().encode(list) {
                    try? FileSystem.atomicWrite(data, to: lastListPath, permissions: 0o600, durable: false)
                }
                return list
            },
            ring: { alarm, due in
                say(.ringing(alarm: alarm.id, due: LocalTimeText.iso(due, zone)))
                launcher.ring(alarm)
            },
            missed: { alarm, due, late in
                say(.missed(alarm: alarm.id, due: LocalTimeText.iso(due, zone), lateMinutes: Int(late / 60), windowMinutes: window))
                log(
                    "missed alarm \(alarm.id.uuidString.lowercased()): due \(LocalTimeText.iso(due, zone)), \(Int(late / 60)) min late, more than \(window) min; not ringing"
                )
                note(.missed, alarm.id, due)
            },
            skipped: { alarm, due in
                log("skipped alarm \(alarm.id.uuidString.lowercased()): due \(LocalTimeText.iso(due, zone)), a day skipped; not ringing")
                note(.skipped, alarm.id, due)
            },
            trouble: { say(.listUnreadable("\($0)")) },
            lastKnown: lastKnown,
            since: lastLook,
            looked: { try? FileSystem.atomicWrite(Data(String($0.timeIntervalSince1970).utf8), to: lookFile, durable: false) })
    }

    /// Runs the daemon until `stop()`; returns when it has stopped, and the rings it started with it.
    package func run() {
        let daemon = self.daemon
        let done = DispatchSemaphore(value: 0)
        let started: Bool = state.withLock {
            guard !$0.stopped else { return false }
            $0.task = Task {
                try? await daemon.run()
                done.signal()
            }
            return true
        }
        if started {
            if let watch = testRingWatch { Thread.detachNewThread { [self] in answerTestRings(watching: watch) } }
            done.wait()
        }
        launcher.stopAll()
        withExtendedLifetime(lock) {}
    }

    /// Answers the page's test rings until the daemon stops: one waiting already, then each as
    /// it is asked (the folder's watch wakes this thread; it looks at `stopped` every second).
    private func answerTestRings(watching watch: FolderWatch) {
        answerTestRing()
        while !state.withLock({ $0.stopped }) {
            if watch.wait(seconds: 1) { answerTestRing() }
        }
    }

    /// Takes a waiting test ring, if any, and rings it as an alarm rings (its own process, in the
    /// ringing registry, so Stop and the page's banner work), for `TestRing.seconds`.
    private func answerTestRing() { Self.answerTestRing(testRings, launcher: launcher, now: now(), say: say) }

    private static func answerTestRing(_ desk: TestRingDesk, launcher: RingLauncher, now: Date, say: @Sendable (DaemonNotice) -> Void) {
        guard let request = desk.take(now: now) else { return }
        let scheduled = (try? EmbeddedScheduler.scheduledAlarms(in: launcher.dataDirectory))?.first { $0.id == request.alarm }
        say(.testRing(alarm: request.alarm, seconds: TestRing.seconds))
        launcher.testRing(request.alarm, scheduled: scheduled, seconds: TestRing.seconds, resultPath: desk.resultPath)
    }

    /// Stops the daemon (from a signal handler's queue).
    package func stop() {
        state.withLock {
            $0.stopped = true
            $0.task?.cancel()
        }
    }
}
