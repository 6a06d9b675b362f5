import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmScheduling

/// `voicealarm doctor`: whether anything will ring the alarms, and what to fix.
public struct Doctor {
    /// What was found, as values a command prints.
    public struct Report: Sendable {
        /// The backend in use; nil when the library could not be opened to tell.
        public var backend: SchedulerBackend?
        /// Why the library cannot be opened, when it cannot (the alarms then ring degraded).
        public var libraryProblem: String?
        /// Why the running daemon is degraded, when it is.
        public var daemonDegraded: String?
        /// The daemon's systemd service, for the embedded backend: "not installed", or its state.
        public var daemonService: String?
        /// The kernel clock alarms sleep on, and why they cannot wake a suspended machine when they cannot.
        public var wakeClock: String = AlarmTimerClock.Kind.realtime.rawValue
        public var cannotWake: String?
        public var dataDirectory: String
        public var soundsDirectory: String
        /// Where systemd units go, for the systemd backend.
        public var unitDirectory: String?
        /// The default tone's path, when it is there or could be made.
        public var defaultTone: String?
        public var alarms: Int
        /// Alarms that still have a ring ahead.
        public var live: Int
        /// Live alarms that will play the person's voice.
        public var withVoice: Int
        /// Live voice alarms that will play the default tone instead, and why.
        public var onDefaultTone: [(id: String, reason: String)]
        /// The playback device alarms ring on, and whether it opens.
        public var device: String
        public var deviceOpens: Bool
        /// Sentences saying what stops alarms from ringing and what to do; empty when nothing does.
        public var problems: [String]
    }

    let service: AlarmService
    /// Opens the playback device (ALSA in the product).
    let openDevice: (String) throws -> Void

    public init(service: AlarmService,
                openDevice: @escaping (String) throws -> Void = { _ = try AlsaPlayback(device: $0, sampleRate: RenderSettings.defaultSampleRate) }) {
        self.service = service
        self.openDevice = openDevice
    }

    /// What can be told of a library that cannot be opened: the damage, the running daemon, the
    /// default tone (made in memory) and the device.
    public static func examine(unopened location: LibraryLocation, because error: any Error, device: String = "default",
                               openDevice: (String) throws -> Void = { _ = try AlsaPlayback(device: $0, sampleRate: RenderSettings.defaultSampleRate) }) -> Report {
        let dataDirectory = location.dataDirectory
        var problems = ["the library cannot be opened (\(error)); the alarms ring from what their scheduler holds"]
        let daemon = daemonState(dataDirectory)
        if let daemon { problems.append("the daemon runs degraded: \(daemon)") }
        if (try? DefaultTone.samples(sampleRate: RenderSettings.defaultSampleRate)) == nil { problems.append("the default tone cannot be made") }
        var deviceOpens = true
        do { try openDevice(device) } catch {
            deviceOpens = false
            problems.append("the sound device '\(device)' does not open (\(error)); rings will fail unless --device names one that does")
        }
        let wake = self.wake(nil, executable: location.executable)
        return Report(backend: nil, libraryProblem: "\(error)", daemonDegraded: daemon, daemonService: nil,
                      wakeClock: wake.clock, cannotWake: wake.cannotWake, dataDirectory: dataDirectory,
                      soundsDirectory: location.soundsDirectory ?? "\(dataDirectory)/Sounds", unitDirectory: nil, defaultTone: nil,
                      alarms: 0, live: 0, withVoice: 0, onDefaultTone: [], device: device, deviceOpens: deviceOpens, problems: problems)
    }

    /// The scheduler's drift from the library as sentences: one per kind, naming the first alarm
    /// and how many more, each saying what to do.
    static func driftProblems(_ drift: [ScheduleDrift]) -> [String] {
        var kinds: [[ScheduleDrift]] = []
        for item in drift {
            if let index = kinds.firstIndex(where: { Self.sameKind($0[0], item) }) { kinds[index].append(item) } else { kinds.append([item]) }
        }
        return kinds.map { items in
            "\(items[0])" + (items.count > 1 ? " (and \(items.count - 1) more like it)" : "") + "; run 'voicealarm reconcile'"
        }
    }

    private static func sameKind(_ a: ScheduleDrift, _ b: ScheduleDrift) -> Bool {
        switch (a, b) {
        case (.notHeld, .notHeld), (.stale, .stale), (.unknown, .unknown), (.missingSound, .missingSound): true
        default: false
        }
    }

    /// The daemon service's state in words, for the embedded backend.
    private func serviceState(_ location: LibraryLocation) -> String? {
        guard let daemon = try? DaemonService(service: service, location: location) else { return nil }
        let state = daemon.unit.state()
        guard state.installed else { return "not installed ('voicealarm service install' keeps the daemon running)" }
        guard state.managed else { return "installed as \(daemon.unit.path); no systemd user manager manages it here" }
        return "\(state.enabled ? "enabled" : "not enabled"), \(state.running ? "running" : "not running")" + (state.lingering ? "" : "; lingering off")
    }

    /// Why the daemon running for `dataDirectory` is degraded, or nil (none runs, or it is not).
    static func daemonState(_ dataDirectory: String) -> String? {
        guard DaemonLock.isHeld(dataDirectory: dataDirectory),
              let text = try? String(contentsOfFile: "\(dataDirectory)/\(DaemonHost.degradedFile)", encoding: .utf8) else { return nil }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether alarms can wake this machine from suspend, as the daemon (this binary, this user) would find it.
    static func wake(_ service: AlarmService?, executable: String) -> (clock: String, cannotWake: String?) {
        if let service, !service.scheduler.ringsThroughDaemon {
            return ("systemd", "systemd user timers cannot wake a suspended machine (WakeSystem= needs privileges a user manager lacks); "
                    + "the embedded daemon can: 'voicealarm --scheduler embedded reconcile' and 'voicealarm service install'")
        }
        guard let clock = try? AlarmTimerClock(executable: executable) else { return (AlarmTimerClock.Kind.realtime.rawValue, "no timer file descriptor here") }
        return (clock.kind.rawValue, clock.cannotWake)
    }

    /// Looks at the scheduler, the default tone, every alarm's sound, the device (the
    /// remembered one unless `device` is given), the binary the alarms run and whether they can
    /// wake the machine.
    public func examine(device: String? = nil, location: LibraryLocation? = nil) throws -> Report {
        let device = try device ?? service.settings.device() ?? "default"
        var problems = service.sync.problems()
        if let warning = (location ?? LibraryLocation(dataDirectory: service.dataDirectory)).buildFolderWarning { problems.append(warning) }
        let daemon = Self.daemonState(service.dataDirectory)
        if let daemon { problems.append("the daemon runs degraded: \(daemon); run 'voicealarm repair', then restart it") }
        var defaultTone: String?
        do { defaultTone = try DefaultTone.ensure(in: service.dataDirectory) } catch {
            problems.append("the default tone cannot be made: \(SystemError.text(of: error))")
        }
        let statuses = try service.alarms.statuses()
        let live = statuses.filter { $0.next != nil }
        do {
            problems += Self.driftProblems(try service.sync.drift().filter(\.affectsRinging))
        } catch {
            problems.append("the scheduler cannot be compared with the library (\(SystemError.text(of: error))); run 'voicealarm reconcile'")
        }
        if let unreadable = try? service.store.unreadableAlarmIDs(), let first = unreadable.first {
            problems.append("\(unreadable.count == 1 ? "an alarm's record" : "\(unreadable.count) alarms' records") cannot be read "
                            + "(\(first.uuidString.lowercased())\(unreadable.count > 1 ? ", …" : "")): they ring only as their scheduler last held them; "
                            + "run 'voicealarm repair'")
        }
        let soundFiles = Dictionary(try service.store.alarms().map { ($0.alarm.id, $0.soundFile) }, uniquingKeysWith: { first, _ in first })
        for status in live where status.alarm.voice {
            guard let file = soundFiles[status.alarm.id] ?? nil else { continue }
            let path = service.sounds.path(of: file)
            if FileSystem.kind(of: path, followingLinks: true) == .regular, !FileSystem.isReadable(path) {
                let owner = (try? FileSystem.status(of: path)).map { FileSystem.userName($0.owner) ?? "\($0.owner)" } ?? "another user"
                problems.append("voice file \(path) belongs to \(owner) and cannot be read by you: alarm \(status.alarm.idString) "
                                + "would ring the default tone; 'voicealarm build --all' makes it again as yours")
            }
        }
        var deviceOpens = true
        do { try openDevice(device) } catch {
            deviceOpens = false
            problems.append("the sound device '\(device)' does not open (\(error)); rings fall back to 'default' — choose one with 'voicealarm settings device NAME'")
        }
        var report = Report(
            backend: service.scheduler.backend, libraryProblem: nil, daemonDegraded: daemon,
            daemonService: serviceState(location ?? LibraryLocation(dataDirectory: service.dataDirectory)),
            dataDirectory: service.dataDirectory, soundsDirectory: service.sounds.path,
            unitDirectory: service.scheduler.systemdUnitDirectory,
            defaultTone: defaultTone, alarms: statuses.count, live: live.count,
            withVoice: live.filter { $0.sound.reason == nil }.count,
            onDefaultTone: live.filter { $0.sound.reason != nil && $0.alarm.voice }.map { ($0.alarm.idString, $0.sound.reason!) },
            device: device, deviceOpens: deviceOpens, problems: problems)
        let wake = Self.wake(service, executable: (location ?? LibraryLocation(dataDirectory: service.dataDirectory)).executable)
        report.wakeClock = wake.clock
        report.cannotWake = wake.cannotWake
        return report
    }
}
