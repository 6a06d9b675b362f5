import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmScheduling
import VoiceAlarmStore

/// Opens the library a `LibraryLocation` names: builds the scheduler the data dir uses,
/// switches backends when another one is asked for, and moves the voice files when another
/// sounds dir is asked for.
///
/// A switch never leaves an alarm in no scheduler: the new backend is built before anything
/// leaves the old one, and when entering the new one fails (a unit dir that is a file fails at
/// its first unit) the alarms go back to the old one and the old choice, and the old unit dir,
/// stay remembered. A sounds dir is checked when the library opens, but the voice files move to it
/// (and it is remembered) only once the command has succeeded (`switchSounds`): a command that
/// fails changes no folder.
///
/// ```swift
/// let (service, switched) = try LibraryOpener.open(LibraryLocation(dataDirectory: dir, backend: .systemd))
/// ```
package enum LibraryOpener {
    /// - Parameters:
    ///   - now: "now" for the schedule rules and next ring times (a test or an app's own clock).
    ///   - timeZone: the zone alarm times are in.
    /// - Returns: the service, and what a backend switch did when one happened.
    /// - Throws: `StoreError` when the library cannot be opened or a requested sounds dir cannot
    ///   be used; scheduler errors when a backend cannot be built or the switch fails (the alarms
    ///   then stay with the old backend).
    package static func open(
        _ location: LibraryLocation, now: @escaping @Sendable () -> Date = Date.init,
        timeZone: TimeZone = .current, warn: @escaping (ServiceWarning) -> Void = { _ in }
    )
        throws -> (AlarmService, BackendSwitch?)
    {
        let store = try LibraryStore(dataDirectory: location.dataDirectory, busyTimeout: location.busyTimeoutMilliseconds)
        store.now = now
        var remembered = try store.settings()
        let previousUnits = remembered.unitDirectory
        if let given = location.unitDirectory, remembered.unitDirectory != given {
            try store.changeSettings { $0.unitDirectory = given }
            remembered.unitDirectory = given
        }
        let defaultSounds = "\(store.dataDirectory)/Sounds"
        let rememberedSounds = remembered.soundsDirectory ?? defaultSounds
        let sounds = try SoundsDirectory(
            path: rememberedSounds, chosen: rememberedSounds != defaultSounds,
            announce: { warn(.folderMadePrivate(path: $0, previousMode: $1)) })
        if let requested = location.soundsDirectory, !PrivateFolder.same(requested, sounds.path) {
            // Checked now, making and changing nothing, so a folder that cannot be used fails the
            // command before it does anything.
            try SoundsDirectory.check(path: requested, chosen: !PrivateFolder.same(requested, defaultSounds))
        }
        let current = remembered.scheduler ?? .embedded
        let unitDirectory = remembered.unitDirectory ?? SystemdTimerScheduler.defaultUnitDirectory

        var remade = false
        func scheduler(_ backend: SchedulerBackend) throws -> any AlarmScheduler {
            switch backend {
            case .embedded:
                do {
                    return try EmbeddedScheduler(dataDirectory: store.dataDirectory, now: now)
                } catch StoreError.damaged(let path, let reason) {
                    // The list is made from the library: a damaged one is moved aside and made again.
                    let aside = try FileSystem.moveAside(path, now: now())
                    warn(.schedulerListRemade(reason: reason, keptAs: aside))
                    remade = true
                    return try EmbeddedScheduler(dataDirectory: store.dataDirectory, now: now)
                }
            case .systemd:
                return try SystemdTimerScheduler(
                    unitDirectory: unitDirectory, dataDirectory: store.dataDirectory,
                    executable: location.executable, soundsDirectory: sounds.path,
                    device: remembered.device)
            }
        }

        guard let requested = location.backend, requested != current else {
            let service = AlarmService(store: store, sounds: sounds, scheduler: try scheduler(current), now: now, timeZone: timeZone, warn: warn)
            if remade { _ = try service.sync.reconcile() }
            return (service, nil)
        }
        // Both backends exist before anything moves: a new one that cannot be built changes nothing.
        let old = try scheduler(current)
        let new = try scheduler(requested)
        let held = try old.alarms()
        for alarm in held { try old.cancel(id: alarm.id) }
        let service = AlarmService(store: store, sounds: sounds, scheduler: new, now: now, timeZone: timeZone, warn: warn)
        do {
            try store.changeSettings { $0.scheduler = requested }
            let report = try service.sync.reconcile()
            return (service, BackendSwitch(from: current, to: requested, cancelled: held.count, report: report))
        } catch {
            // Back to the old backend: every alarm it held is scheduled there again, nothing stays in the new one.
            for alarm in (try? new.alarms()) ?? [] { try? new.cancel(id: alarm.id) }
            try? store.changeSettings {
                $0.scheduler = current
                $0.unitDirectory = previousUnits
            }
            _ = try? service.sync.reconcile(with: old)
            throw error
        }
    }

    /// Makes `location`'s sounds dir the library's, when it names another one: every voice file
    /// is copied there, the folder remembered, the scheduler given the new paths, and only then
    /// are the old files removed. When any step fails the old folder stays remembered with its
    /// files, the copies go, and the error is thrown.
    /// - Returns: how many voice files moved, or nil when no switch was asked for.
    package static func switchSounds(
        of service: AlarmService, to location: LibraryLocation,
        warn: @escaping (ServiceWarning) -> Void = { _ in }
    ) throws -> Int? {
        // However it is spelled (a trailing slash, a link), the folder in use is no switch: nothing is copied onto itself.
        guard let requested = location.soundsDirectory, !PrivateFolder.same(requested, service.sounds.path) else { return nil }
        let store = service.store
        let old = service.sounds
        let new = try SoundsDirectory(
            path: requested, chosen: !PrivateFolder.same(requested, "\(store.dataDirectory)/Sounds"),
            announce: { warn(.folderMadePrivate(path: $0, previousMode: $1)) })
        let previous = try store.settings().soundsDirectory
        var copied: [String] = []
        do {
            for stored in try store.alarms() {
                guard let file = stored.soundFile, FileSystem.kind(of: old.path(of: file)) == .regular else { continue }
                try FileSystem.atomicCopy(old.path(of: file), to: new.path(of: file), permissions: 0o600)
                copied.append(file)
            }
            try store.changeSettings { $0.soundsDirectory = requested }
            let scheduler = try service.scheduler.relocating(soundsDirectory: new.path)
            let moved = AlarmService(store: store, sounds: new, scheduler: scheduler, now: service.now, timeZone: service.timeZone, warn: warn)
            _ = try moved.sync.reconcile()
        } catch {
            // The old folder back first (remembered, and named by the scheduler again), then the copies go.
            try? store.changeSettings { $0.soundsDirectory = previous }
            _ = try? service.sync.reconcile()
            for file in copied { FileSystem.remove(new.path(of: file)) }
            throw error
        }
        for file in copied { FileSystem.remove(old.path(of: file)) }
        return copied.count
    }
}
