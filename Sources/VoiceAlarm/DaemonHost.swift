import Foundation
import Synchronization
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmScheduling

/// `voicealarm daemon`: rings the embedded scheduler's alarms for one data dir. Holds the
/// data dir's daemon lock, reconciles at start, remembers when it last looked (so alarms due
/// while no daemon ran are found after a restart), and starts each ring as its own process.
///
/// ```swift
/// let host = try DaemonHost(service: service, options: .init(), say: { print($0) })
/// host.run()          // until stop() (SIGTERM, Ctrl-C)
/// ```
public final class DaemonHost: Sendable {
    public struct Options: Sendable {
        /// Re-read the alarms at least this often, in seconds.
        public var pollSeconds = 15.0
        /// The longest ring, in seconds.
        public var maxRingSeconds = 600.0
        /// The ALSA device rings play on.
        public var device = "default"
        public init() {}
    }

    /// Why the daemon cannot run for this library.
    public enum Refusal: Error, CustomStringConvertible {
        case notEmbedded
        public var description: String { "the daemon rings the embedded scheduler's alarms; this data dir uses systemd timers" }
    }

    /// What the start-up reconcile did, and how many alarms the daemon watches.
    public let startReport: ReconcileReport
    /// How many alarms the embedded scheduler held at start.
    public let watched: Int
    /// The library the daemon rings for.
    public let dataDirectory: String
    private let daemon: AlarmDaemon
    private let lock: DaemonLock
    private let state = Mutex<(task: Task<Void, Never>?, stopped: Bool)>((nil, false))

    /// Takes the lock and reconciles; the daemon starts with `run()`.
    /// - Throws: `Refusal.notEmbedded` for a systemd data dir; `SchedulerError.daemonRunning` when
    ///   another daemon holds the lock.
    public init(service: AlarmService, options: Options, say: @escaping @Sendable (String) -> Void) throws {
        guard service.scheduler is EmbeddedScheduler else { throw Refusal.notEmbedded }
        let dataDirectory = service.dataDirectory
        self.dataDirectory = dataDirectory
        lock = try DaemonLock(dataDirectory: dataDirectory)
        startReport = try service.sync.reconcile()
        watched = try service.sync.scheduled().count
        let events = EventLog(dataDirectory: dataDirectory)
        let launcher = RingLauncher(executable: LibraryLocation.currentExecutable, dataDirectory: dataDirectory,
                                    device: options.device, maxSeconds: options.maxRingSeconds)
        let lookFile = "\(dataDirectory)/daemon-last-look"
        let lastLook = (try? String(contentsOfFile: lookFile, encoding: .utf8))
            .flatMap { TimeInterval($0.trimmingCharacters(in: .whitespacesAndNewlines)) }.map(Date.init(timeIntervalSince1970:))
        let timeZone = service.timeZone
        daemon = AlarmDaemon(
            clock: SystemWallClock(), timeZone: timeZone, pollInterval: options.pollSeconds,
            alarms: { try EmbeddedScheduler(dataDirectory: dataDirectory).alarms() },
            ring: { alarm, due in
                say("Ringing alarm \(alarm.id.uuidString.lowercased()) (due \(LocalTimeText.iso(due, timeZone))).")
                launcher.ring(alarm.id)
            },
            missed: { alarm, due, late in
                let message = "missed alarm \(alarm.id.uuidString.lowercased()): due \(LocalTimeText.iso(due, timeZone)), \(Int(late / 60)) min late, more than \(Int(MissedAlarmPolicy.window / 60)) min; not ringing"
                say(message)
                events.record(message)
            },
            trouble: { say("warning: the daemon could not read its alarms: \($0)") },
            since: lastLook,
            looked: { try? FileSystem.atomicWrite(Data(String($0.timeIntervalSince1970).utf8), to: lookFile) })
    }

    /// Runs the daemon until `stop()`; returns when it has stopped.
    public func run() {
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
        if started { done.wait() }
        withExtendedLifetime(lock) {}
    }

    /// Stops the daemon (from a signal handler's queue).
    public func stop() {
        state.withLock {
            $0.stopped = true
            $0.task?.cancel()
        }
    }
}
