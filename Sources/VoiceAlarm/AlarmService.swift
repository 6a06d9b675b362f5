import Foundation
import VoiceAlarmCore
import VoiceAlarmScheduling
import VoiceAlarmStore

/// The library, in parts: every change to a recording, a playlist, the manifesto, the settings
/// or the voice switch flows through to exactly the alarms it touches — their ringtone rebuilt
/// (or the default tone chosen, with a reason) and re-scheduled.
///
/// The parts, each one job: `clips` (`ClipCatalogue`), `playlists` (`PlaylistEditor`), `alarms`
/// (`AlarmBook`), `settings` (`SettingsEditor`), `builder` (`SoundBuilder`: what an alarm plays)
/// and `sync` (`ScheduleSync`: the scheduler in step).
///
/// ```swift
/// let service = AlarmService(store: try LibraryStore(dataDirectory: dir), sounds: try SoundsDirectory(path: "\(dir)/Sounds"),
///                            scheduler: try EmbeddedScheduler(dataDirectory: dir))
/// let clip = try service.clips.add("calm.wav", title: "Calm")
/// try service.playlists.create("morning", clips: [clip.idString])
/// let added = try service.alarms.add(on: .playlist("morning"), at: AlarmTime(hour: 7, minute: 0), days: .everyDay)
/// ```
/// Rules and the writes they guard run in one store transaction; rendering runs outside any.
public final class AlarmService {
    public let store: LibraryStore
    public let sounds: SoundsDirectory
    public let scheduler: any AlarmScheduler
    /// "Now", injected so schedule logic is tested without waiting.
    public let now: @Sendable () -> Date
    public let timeZone: TimeZone

    public let builder: SoundBuilder
    public let sync: ScheduleSync
    public let settings: SettingsEditor
    public let clips: ClipCatalogue
    public let playlists: PlaylistEditor
    public let alarms: AlarmBook
    let warn: (String) -> Void
    let renderer: any RingtoneRendering
    let checker: any SoundChecking

    /// - Parameter warn: where warnings for a person go (clips left out, scheduler failures).
    public init(store: LibraryStore, sounds: SoundsDirectory, scheduler: any AlarmScheduler,
                now: @escaping @Sendable () -> Date = Date.init, timeZone: TimeZone = .current,
                renderer: any RingtoneRendering = LibraryRenderer(), checker: any SoundChecking = InspectingSoundChecker(),
                warn: @escaping (String) -> Void = { _ in }) {
        self.store = store
        self.sounds = sounds
        self.scheduler = scheduler
        self.now = now
        self.timeZone = timeZone
        self.warn = warn
        self.renderer = renderer
        self.checker = checker
        builder = SoundBuilder(store: store, sounds: sounds, renderer: renderer, checker: checker, warn: warn)
        sync = ScheduleSync(scheduler: scheduler, store: store, builder: builder, now: now, timeZone: timeZone, warn: warn)
        settings = SettingsEditor(store: store, sync: sync)
        clips = ClipCatalogue(store: store, sync: sync)
        playlists = PlaylistEditor(store: store, sync: sync, clips: clips)
        alarms = AlarmBook(store: store, sync: sync, playlists: playlists, now: now, timeZone: timeZone)
    }

    /// The library's folder.
    public var dataDirectory: String { store.dataDirectory }

    /// Another service over the same library with its own database connections, for another
    /// thread (SQLite connections and the embedded scheduler's list are not shared).
    public func connection() throws -> AlarmService {
        let scheduler: any AlarmScheduler = self.scheduler is EmbeddedScheduler
            ? try EmbeddedScheduler(dataDirectory: dataDirectory) : self.scheduler
        return AlarmService(store: try LibraryStore(dataDirectory: dataDirectory), sounds: try SoundsDirectory(path: sounds.path),
                            scheduler: scheduler, now: now, timeZone: timeZone, renderer: renderer, checker: checker, warn: warn)
    }
}
