import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles
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
package final class AlarmService {
    /// The library's records (for the service's parts and the package's tests, not its users).
    package let store: LibraryStore
    /// The folder of voice files.
    package let sounds: SoundsDirectory
    /// The backend alarms are scheduled with.
    package let scheduler: any AlarmScheduler
    /// "Now", injected so schedule logic is tested without waiting.
    package let now: @Sendable () -> Date
    /// The zone alarm times are in.
    package let timeZone: TimeZone

    /// What each alarm plays, and its voice file kept in step.
    package let builder: SoundBuilder
    /// The scheduler kept in step with the library.
    package let sync: ScheduleSync
    /// The remembered render settings.
    package let settings: SettingsEditor
    /// The recordings.
    package let clips: ClipCatalogue
    /// Playlists and the manifesto.
    package let playlists: PlaylistEditor
    /// The alarms.
    package let alarms: AlarmBook
    /// Snoozing a ringing alarm, and cancelling snoozes.
    package let snoozes: Snoozer
    /// The holidays alarms may skip.
    package let holidays: HolidayBook
    let warn: (ServiceWarning) -> Void

    /// - Parameters:
    ///   - jobs: how many ringtones are built at once when a change reaches several alarms.
    ///   - opener: given the library's `Connector`, where each of those builds gets a
    ///     `SoundBuilder` of its own; nil builds one alarm at a time. By default the connector
    ///     itself, whose builders have the real renderer and checker; a service given other ones
    ///     passes an opener whose builders have them too. A library opened read-only builds one
    ///     alarm at a time (workers write) and does not ask.
    ///   - warn: where warnings for a person go (clips left out, scheduler failures).
    package init(
        store: LibraryStore, sounds: SoundsDirectory, scheduler: any AlarmScheduler,
        now: @escaping @Sendable () -> Date = Date.init, timeZone: TimeZone = .current,
        renderer: any RingtoneRendering = LibraryRenderer(), checker: any SoundChecking = InspectingSoundChecker(),
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        opener: (Connector) -> (any SoundBuilderOpening)? = { $0 },
        warn: @escaping (ServiceWarning) -> Void = { _ in }
    ) {
        self.store = store
        self.sounds = sounds
        self.scheduler = scheduler
        self.now = now
        self.timeZone = timeZone
        self.warn = warn
        let opener = store.isReadOnly ? nil : opener(Connector(dataDirectory: store.dataDirectory, soundsDirectory: sounds.path))
        builder = SoundBuilder(store: store, sounds: sounds, renderer: renderer, checker: checker, warn: warn)
        sync = ScheduleSync(
            scheduler: scheduler, store: store, builder: builder, now: now, timeZone: timeZone,
            jobs: jobs, opener: opener, warn: warn)
        settings = SettingsEditor(store: store, sync: sync)
        clips = ClipCatalogue(store: store, sync: sync)
        playlists = PlaylistEditor(store: store, sync: sync, clips: clips)
        alarms = AlarmBook(store: store, sync: sync, playlists: playlists, now: now, timeZone: timeZone)
        snoozes = Snoozer(store: store, sync: sync, registry: RingingRegistry(dataDirectory: store.dataDirectory), now: now, timeZone: timeZone)
        holidays = HolidayBook(store: store, sync: sync, now: now, timeZone: timeZone)
    }

    /// The library's folder.
    package var dataDirectory: String { store.dataDirectory }
    /// The folder of voice files.
    package var soundsDirectory: String { sounds.path }

    /// What it takes to open this library again on another thread, with its own connection
    /// (SQLite connections and the embedded scheduler's list are not shared between threads).
    package var connector: Connector { Connector(dataDirectory: dataDirectory, soundsDirectory: sounds.path) }

    /// Opens the same library again: a value that crosses threads, unlike the service. Rebuild
    /// workers open their `SoundBuilder` with it.
    package struct Connector: SoundBuilderOpening {
        /// The library's folder.
        package let dataDirectory: String
        /// Its folder of voice files.
        package let soundsDirectory: String

        /// A builder on its own connection, with the real renderer and checker.
        package func openBuilder(warn: @escaping @Sendable (ServiceWarning) -> Void) throws -> SoundBuilder {
            // A worker opens the library the caller has open; one gone meanwhile is not made anew.
            let database = "\(dataDirectory)/voicealarm.sqlite"
            guard FileSystem.kind(of: database) == .regular else { throw StoreError.damaged(path: database, reason: "it is gone") }
            return SoundBuilder(store: try LibraryStore(dataDirectory: dataDirectory), sounds: try SoundsDirectory(path: soundsDirectory), warn: warn)
        }
    }
}
