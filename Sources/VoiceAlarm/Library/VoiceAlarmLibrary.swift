import Foundation
import VoiceAlarmCore
import VoiceAlarmStore

/// A VoiceAlarm library, for an app: the recordings, the playlists they make, and the alarms
/// that wake a person to them — each alarm's ringtone rebuilt, or the default tone chosen with a
/// reason, whenever a change reaches it, and then scheduled.
///
/// It is the same library the `voicealarm` command edits (a folder holding `voicealarm.sqlite`,
/// `clips/` and `Sounds/`): an app and the command line may take turns on one data dir, and
/// alarms ring through the scheduler the library remembers (`voicealarm daemon`, or systemd
/// timers that run `voicealarm ring`).
///
/// ```swift
/// import VoiceAlarm
/// import VoiceAlarmCore
///
/// let library = try VoiceAlarmLibrary(dataDirectory: "/home/me/.local/share/voicealarm")
/// let clip = try library.importClip(from: "calm.wav", title: "Calm")
/// let morning = try library.createPlaylist("morning", clips: [clip.id])
/// let alarm = try library.addAlarm(on: morning, at: AlarmTime(hour: 7, minute: 0), days: .workDays)
/// _ = try library.setWakeUpToMyVoice(false, for: alarm.alarm.id)   // the default tone
/// library.close()
/// for await event in library.events { print(event) }               // what the changes rebuilt
/// ```
///
/// Use one library from one thread or task at a time (it holds a SQLite connection); open
/// another `VoiceAlarmLibrary` on the same folder for another thread. Every call that changes
/// what alarms play returns once their ringtones are built and scheduled.
public final class VoiceAlarmLibrary {
    /// What the library's changes did to alarms, in order: each rebuild's result (built,
    /// unchanged, on the default tone, deferred) and every warning. Events wait here until read,
    /// the newest `bufferedEvents` at most; the stream ends when the library is closed. One
    /// reader: an `AsyncStream` is iterated once.
    public let events: AsyncStream<Event>
    /// How many unread events `events` keeps (the oldest go first).
    public static let bufferedEvents = 1_000
    /// The library's folder.
    public let dataDirectory: String

    /// The service under this facade, until `close()`.
    private var service: AlarmService?
    private let continuation: AsyncStream<Event>.Continuation

    /// Opens the library in `dataDirectory`, making it (private to this user) when there is none.
    /// It stays open while this value is kept, or until `close()`.
    /// - Parameters:
    ///   - dataDirectory: the library's folder (`voicealarm --data-dir`).
    ///   - now: "now" for the alarm rules (no alarm in the past) and the next ring times: the
    ///     system clock by default, a fixed or moved clock in an app's tests.
    ///   - timeZone: the zone alarm times are in.
    ///   - voicealarmExecutable: the `voicealarm` binary systemd timers run to ring an alarm,
    ///     for a library that schedules with systemd; nil for one on `PATH` (else this process).
    /// - Throws: `VoiceAlarmError` (`.library`) when the folder or its database cannot be used:
    ///   another user's folder, a damaged database, a scheduler that cannot be built.
    public init(
        dataDirectory: String, now: @escaping @Sendable () -> Date = Date.init, timeZone: TimeZone = .current,
        voicealarmExecutable: String? = nil
    ) throws(VoiceAlarmError) {
        (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(Self.bufferedEvents))
        let continuation = continuation
        var location = LibraryLocation(dataDirectory: dataDirectory)
        location.executable = voicealarmExecutable ?? Self.installedExecutable() ?? location.executable
        do {
            let (service, _) = try LibraryOpener.open(location, now: now, timeZone: timeZone) { warning in
                // A rebuild's result is told once, as its own event (below), not again as a warning.
                switch warning {
                case .onDefaultTone, .ringtoneQuiet, .rebuildDeferred: break
                default: continuation.yield(.warning(warning))
                }
            }
            let sounds = service.sounds
            service.sync.rebuilt = { alarm, outcome in
                continuation.yield(Event(alarm: alarm, outcome: outcome, soundsDirectory: sounds))
            }
            self.service = service
            self.dataDirectory = service.dataDirectory
        } catch {
            continuation.finish()
            throw VoiceAlarmError(error)
        }
    }

    deinit { continuation.finish() }

    /// Closes the library: its database connections go, `events` ends once its waiting events
    /// are read, and every later call throws `VoiceAlarmError` (`.closed`). Closing twice is
    /// no error. Alarms stay scheduled: they ring whether or not an app has the library open.
    public func close() {
        service = nil
        continuation.finish()
    }

    /// Whether the library is open (not yet closed).
    public var isOpen: Bool { service != nil }

    /// Keeps a recording in the library: a lossless copy measured once (its length, where its
    /// sound starts and ends), so ringtones are planned without decoding it again.
    /// - Parameters:
    ///   - file: any audio file FFmpeg reads, at most ten minutes long.
    ///   - title: how the clip is shown; nil for the file's name.
    /// - Returns: the new clip.
    /// - Throws: `VoiceAlarmError` — `.unusableRecording` for a file that is missing, not audio,
    ///   silent or too long; `.refused` for a title with control characters.
    public func importClip(from file: String, title: String? = nil) throws(VoiceAlarmError) -> LibraryClip {
        try run { try $0.clips.add(file, title: title) }
    }

    /// Makes a playlist: the clips an alarm plays, in order, into one ringtone of at most
    /// 29 seconds (clips past the cap are left out).
    /// - Parameters:
    ///   - name: the playlist's name (not `manifesto`, at most 100 characters).
    ///   - clips: its clips, in order; more can follow with the command line.
    /// - Returns: the target alarms name to play it.
    /// - Throws: `VoiceAlarmError` (`.refused`) for a name taken or not allowed, or an unknown clip.
    public func createPlaylist(_ name: String, clips: [LibraryClip.ID] = []) throws(VoiceAlarmError) -> Target {
        try run { service in
            try service.playlists.create(name, clips: clips.map(Self.reference))
            return try service.playlists.existing(.playlist(name))
        }
    }

    /// Makes `clip` the manifesto, the one recording alarms on `Target.manifesto` play, and
    /// rebuilds those alarms (their results arrive as `events`).
    /// - Throws: `VoiceAlarmError` (`.refused`) for an unknown clip.
    public func setManifesto(_ clip: LibraryClip.ID) throws(VoiceAlarmError) {
        try run { _ = try $0.playlists.setManifesto(Self.reference(clip)) }
    }

    /// Adds an alarm, builds its ringtone and schedules it. A ringtone that cannot be built never
    /// stops the alarm: it rings the default tone, and an event says why.
    /// - Parameters:
    ///   - target: the playlist (from `createPlaylist`) or `.manifesto` it plays.
    ///   - time: the time of day, in the library's time zone.
    ///   - days: the days it rings each week; empty for once, at the next `time`.
    ///   - label: a name for the alarm, if any.
    ///   - voice: "wake up to my voice": false rings the default tone.
    /// - Returns: the alarm, what it will play and when it rings next.
    /// - Throws: `VoiceAlarmError` (`.refused`) for an unknown playlist, a label with control
    ///   characters, or a broken rule: five alarms per target, one alarm per minute.
    public func addAlarm(
        on target: Target, at time: AlarmTime, days: Weekdays = .everyDay, label: String? = nil,
        voice: Bool = true
    ) throws(VoiceAlarmError) -> AlarmStatus {
        try run { try $0.alarms.add(on: target, at: time, days: days, label: label, voice: voice).status }
    }

    /// Turns an alarm's "wake up to my voice" off (it rings the default tone and its voice file
    /// is deleted) or on (its ringtone is built again), then schedules it with that sound.
    /// - Returns: the alarm, what it will now play and when it rings next.
    /// - Throws: `VoiceAlarmError` (`.refused`) for an unknown alarm.
    public func setWakeUpToMyVoice(_ on: Bool, for alarm: Alarm.ID) throws(VoiceAlarmError) -> AlarmStatus {
        try run { try $0.alarms.setVoice(on, for: Self.reference(alarm)) }
    }

    /// Every alarm, with what it will really play (its voice ringtone, or the default tone and
    /// why) and when it rings next.
    public func alarms() throws(VoiceAlarmError) -> [AlarmStatus] {
        try run { try $0.alarms.statuses() }
    }

    /// The open service, or `.closed`.
    private func open() throws(VoiceAlarmError) -> AlarmService {
        guard let service else { throw VoiceAlarmError(kind: .closed, description: "the library is closed; open it again") }
        return service
    }

    /// Runs `body` on the open service, its failure told as a `VoiceAlarmError`.
    private func run<Result>(_ body: (AlarmService) throws -> Result) throws(VoiceAlarmError) -> Result {
        let service = try open()
        do { return try body(service) } catch { throw VoiceAlarmError(error) }
    }

    /// An id as the service's parts take references: the full id, lowercase.
    private static func reference(_ id: UUID) -> String { id.uuidString.lowercased() }

    /// The first `voicealarm` on `PATH` outside a build folder: what systemd timers should run.
    private static func installedExecutable(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        for folder in (environment["PATH"] ?? "").split(separator: ":") where folder.hasPrefix("/") {
            let candidate = "\(folder)/voicealarm"
            if !LibraryLocation.isInBuildFolder(candidate), FileManager.default.isExecutableFile(atPath: candidate) {
                return URL(fileURLWithPath: candidate).resolvingSymlinksInPath().path
            }
        }
        return nil
    }
}
