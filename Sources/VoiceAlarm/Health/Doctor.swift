import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmScheduling

/// `voicealarm doctor`: whether anything will ring the alarms, and what to fix.
package struct Doctor {
    /// What was found, as values a command prints.
    package struct Report: Sendable {
        /// The backend in use; nil when the library could not be opened to tell.
        package var backend: SchedulerBackend?
        /// Why the library cannot be opened, when it cannot (the alarms then ring degraded).
        package var libraryProblem: String?
        /// Why the running daemon is degraded, when it is.
        package var daemonDegraded: String?
        /// The daemon's systemd service, for the embedded backend.
        package var daemonService: ServiceReport?
        /// The web page's systemd service (`serve`), for the embedded backend.
        package var webService: ServiceReport?
        /// The kernel clock alarms sleep on, and why they cannot wake a suspended machine when they cannot.
        package var wakeClock: String = AlarmTimerClock.Kind.realtime.rawValue
        package var cannotWake: WakeProblem?
        package var dataDirectory: String
        package var soundsDirectory: String
        /// Where systemd units go, for the systemd backend.
        package var unitDirectory: String?
        /// The default tone's path, when it is there or could be made.
        package var defaultTone: String?
        package var alarms: Int
        /// Alarms that still have a ring ahead.
        package var live: Int
        /// Live alarms that will play the person's voice.
        package var withVoice: Int
        /// Live voice alarms that will play the default tone instead, and why.
        package var onDefaultTone: [(id: String, reason: String)]
        /// The playback device alarms ring on, and whether it opens.
        package var device: String
        package var deviceOpens: Bool
        /// What stops alarms from ringing, or deserves a word; empty when nothing does.
        package var problems: [Problem]

        /// Whether anything stops the alarms from ringing (warnings aside).
        package var fails: Bool { problems.contains(where: \.isFailure) }
    }

    /// A systemd user service of the library's (the daemon's or the web page's): its unit and state.
    package struct ServiceReport: Sendable, Equatable {
        /// The unit file's path, and its name.
        package var unit: String, name: String
        /// Whether it is the unit the package installed (enabled, not written).
        package var shipped: Bool
        package var state: UserServiceUnit.State

        init(_ unit: UserServiceUnit) {
            self.unit = unit.path
            name = unit.name
            shipped = unit.isShipped
            state = unit.state()
        }
    }

    /// One thing `doctor` found, as a value: the command line words it.
    package enum Problem: Equatable, Sendable {
        /// The library does not open; the alarms ring from what their scheduler holds.
        case libraryUnopenable(String)
        /// The running daemon is degraded, and why.
        case daemonDegraded(String)
        /// The default tone cannot be made (the error, when known).
        case defaultToneUnavailable(String?)
        /// The playback device does not open.
        case deviceDoesNotOpen(device: String, error: String)
        /// What the scheduler says stops it from ringing; `alarmsWaiting` when live alarms
        /// depend on it (with none, it is a warning for the next one).
        case scheduler(SchedulerProblem, alarmsWaiting: Bool)
        /// The alarms run a binary inside a build folder: they ring today, but 'make clean' or a
        /// moved checkout would stop them. A warning, not a failure.
        case buildFolder(executable: String)
        /// The scheduler differs from the library: the first difference of a kind, and how many more like it.
        case drift(ScheduleDrift, more: Int)
        /// The scheduler could not be compared with the library.
        case schedulerUncomparable(String)
        /// Alarm records that cannot be read: how many, and the first.
        case unreadableAlarmRecords(count: Int, first: UUID)
        /// A voice file another user owns, which this user cannot read.
        case voiceFileUnreadable(path: String, owner: String, alarm: UUID)
        /// The web page's service is installed but not running: the page is down, the alarms
        /// ring all the same. A warning, not a failure.
        case webServiceDown(unit: String)
        /// There are alarms, but none rings within `Doctor.quietDays`: every one is off
        /// (`allOff`), or the first ring is `next` (nil when none rings at all). A warning: the
        /// person may mean it, and must know it.
        case nothingRingsSoon(allOff: Bool, next: Date?)

        /// Whether it stops alarms from ringing as they should; false for a warning alone.
        package var isFailure: Bool {
            switch self {
            case .buildFolder, .webServiceDown, .nothingRingsSoon: false
            case .scheduler(_, let alarmsWaiting): alarmsWaiting
            default: true
            }
        }
    }

    let service: AlarmService
    /// Opens the playback device (ALSA in the product).
    let openDevice: (String) throws -> Void

    package init(
        service: AlarmService,
        openDevice: @escaping (String) throws -> Void = { _ = try AlsaPlayback(device: $0, sampleRate: RenderSettings.defaultSampleRate) }
    ) {
        self.service = service
        self.openDevice = openDevice
    }

    /// What can be told of a library that cannot be opened: the damage, the running daemon, the
    /// default tone (made in memory) and the device.
    package static func examine(
        unopened location: LibraryLocation, because error: any Error, device: String = "default",
        openDevice: (String) throws -> Void = { _ = try AlsaPlayback(device: $0, sampleRate: RenderSettings.defaultSampleRate) }
    ) -> Report {
        let dataDirectory = location.dataDirectory
        var problems: [Problem] = [.libraryUnopenable("\(error)")]
        let daemon = daemonState(dataDirectory)
        if let daemon { problems.append(.daemonDegraded(daemon)) }
        if (try? DefaultTone.samples(sampleRate: RenderSettings.defaultSampleRate)) == nil { problems.append(.defaultToneUnavailable(nil)) }
        var deviceOpens = true
        do { try openDevice(device) } catch {
            deviceOpens = false
            problems.append(.deviceDoesNotOpen(device: device, error: "\(error)"))
        }
        let wake = self.wake(nil, executable: location.executable)
        return Report(
            backend: nil, libraryProblem: "\(error)", daemonDegraded: daemon, daemonService: nil, webService: nil,
            wakeClock: wake.clock, cannotWake: wake.cannotWake, dataDirectory: dataDirectory,
            soundsDirectory: location.soundsDirectory ?? "\(dataDirectory)/Sounds", unitDirectory: nil, defaultTone: nil,
            alarms: 0, live: 0, withVoice: 0, onDefaultTone: [], device: device, deviceOpens: deviceOpens, problems: problems)
    }

    /// The scheduler's drift from the library: one problem per kind, naming the first alarm and
    /// how many more.
    static func driftProblems(_ drift: [ScheduleDrift]) -> [Problem] {
        var kinds: [[ScheduleDrift]] = []
        for item in drift {
            if let index = kinds.firstIndex(where: { Self.sameKind($0[0], item) }) { kinds[index].append(item) } else { kinds.append([item]) }
        }
        return kinds.map { .drift($0[0], more: $0.count - 1) }
    }

    private static func sameKind(_ a: ScheduleDrift, _ b: ScheduleDrift) -> Bool {
        switch (a, b) {
        case (.notHeld, .notHeld), (.stale, .stale), (.unknown, .unknown), (.missingSound, .missingSound): true
        default: false
        }
    }

    /// The web page's service beside `daemon`'s, and the warning when it is installed and
    /// managed but not running.
    private func webService(beside daemon: DaemonService?) -> (report: ServiceReport, problem: Problem?)? {
        guard let daemon, let web = try? WebService(beside: daemon) else { return nil }
        let report = ServiceReport(web.current)
        let state = report.state
        return (report, state.installed && state.managed && !state.running ? .webServiceDown(unit: report.name) : nil)
    }

    /// Why the daemon running for `dataDirectory` is degraded, or nil (none runs, or it is not).
    static func daemonState(_ dataDirectory: String) -> String? {
        guard DaemonLock.isHeld(dataDirectory: dataDirectory),
            let text = FileSystem.text("\(dataDirectory)/\(DaemonHost.degradedFile)")
        else { return nil }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether alarms can wake this machine from suspend, as the daemon (this binary, this user) would find it.
    static func wake(_ service: AlarmService?, executable: String) -> (clock: String, cannotWake: WakeProblem?) {
        if let service, !service.scheduler.ringsThroughDaemon { return ("systemd", .systemdTimers) }
        let clock: AlarmTimerClock
        do { clock = try AlarmTimerClock(executable: executable) } catch { return (AlarmTimerClock.Kind.realtime.rawValue, .noTimer("\(error)")) }
        return (clock.kind.rawValue, clock.cannotWake)
    }

    /// Looks at the scheduler, the default tone, every alarm's sound, the device (the
    /// remembered one unless `device` is given), the binary the alarms run and whether they can
    /// wake the machine.
    package func examine(device: String? = nil, location: LibraryLocation? = nil) throws -> Report {
        let location = location ?? LibraryLocation(dataDirectory: service.dataDirectory)
        let device = try device ?? service.settings.device() ?? "default"
        let statuses = try service.alarms.statuses()
        let live = statuses.filter { $0.next != nil }
        var problems = schedulerProblems(alarmsWaiting: !live.isEmpty, location: location)
        let daemon = Self.daemonState(service.dataDirectory)
        if let daemon { problems.append(.daemonDegraded(daemon)) }
        var defaultTone: String?
        do { defaultTone = try DefaultTone.ensure(in: service.dataDirectory) } catch {
            problems.append(.defaultToneUnavailable(SystemError.text(of: error)))
        }
        problems += drift()
        problems += try soundProblems(live)
        let deviceProblem = self.deviceProblem(device)
        if let deviceProblem { problems.append(deviceProblem) }
        // The daemon's service worked out once, for its own report and the web page's.
        let daemonService = try? DaemonService(service: service, location: location)
        let web = webService(beside: daemonService)
        if let down = web?.problem { problems.append(down) }
        if let quiet = Self.quiet(statuses, now: service.now()) { problems.append(quiet) }
        let wake = Self.wake(service, executable: location.executable)
        return Report(
            backend: service.scheduler.backend, libraryProblem: nil, daemonDegraded: daemon,
            daemonService: daemonService.map { ServiceReport($0.current) }, webService: web?.report,
            wakeClock: wake.clock, cannotWake: wake.cannotWake,
            dataDirectory: service.dataDirectory, soundsDirectory: service.sounds.path,
            unitDirectory: service.scheduler.systemdUnitDirectory,
            defaultTone: defaultTone, alarms: statuses.count, live: live.count,
            withVoice: live.filter { $0.sound.reason == nil }.count,
            onDefaultTone: live.filter { $0.sound.reason != nil && $0.alarm.voice }.map { ($0.alarm.idString, $0.sound.reason!) },
            device: device, deviceOpens: deviceProblem == nil, problems: problems)
    }

    /// How far ahead `doctor` looks for a ring before it warns that nothing rings.
    package static let quietDays = 7

    /// The warning that nothing rings within `quietDays` though there are alarms (every one
    /// off, or all further away), or nil.
    static func quiet(_ statuses: [AlarmStatus], now: Date) -> Problem? {
        let kept = statuses.filter { !$0.hasFinished }
        guard !kept.isEmpty else { return nil }
        let next = kept.compactMap(\.next).min()
        guard next.map({ $0.timeIntervalSince(now) > Double(quietDays) * 86_400 }) ?? true else { return nil }
        return .nothingRingsSoon(allOff: kept.allSatisfy { !$0.alarm.isOn }, next: next)
    }

    /// What stops the scheduler from ringing, and where the alarms' binary lives.
    private func schedulerProblems(alarmsWaiting: Bool, location: LibraryLocation) -> [Problem] {
        var problems: [Problem] = service.sync.problems().map { .scheduler($0, alarmsWaiting: alarmsWaiting) }
        if let warning = location.buildFolderProblem { problems.append(warning) }
        return problems
    }

    /// How the scheduler differs from the library where it changes what rings.
    private func drift() -> [Problem] {
        do { return Self.driftProblems(try service.sync.drift().filter(\.affectsRinging)) } catch {
            return [.schedulerUncomparable(SystemError.text(of: error))]
        }
    }

    /// Alarm records that cannot be read, and voice files of live alarms this user cannot read.
    private func soundProblems(_ live: [AlarmStatus]) throws -> [Problem] {
        var problems: [Problem] = []
        if let unreadable = try? service.store.unreadableAlarmIDs(), let first = unreadable.first {
            problems.append(.unreadableAlarmRecords(count: unreadable.count, first: first))
        }
        let soundFiles = Dictionary(try service.store.alarms().map { ($0.alarm.id, $0.soundFile) }, uniquingKeysWith: { first, _ in first })
        for status in live where status.alarm.voice {
            guard let file = soundFiles[status.alarm.id] ?? nil else { continue }
            let path = service.sounds.path(of: file)
            if FileSystem.kind(of: path, followingLinks: true) == .regular, !FileSystem.isReadable(path) {
                let owner = (try? FileSystem.status(of: path)).map { FileSystem.userName($0.owner) ?? "\($0.owner)" } ?? "another user"
                problems.append(.voiceFileUnreadable(path: path, owner: owner, alarm: status.alarm.id))
            }
        }
        return problems
    }

    /// Why the playback device does not open, or nil when it does.
    private func deviceProblem(_ device: String) -> Problem? {
        do { try openDevice(device) } catch { return .deviceDoesNotOpen(device: device, error: "\(error)") }
        return nil
    }
}
