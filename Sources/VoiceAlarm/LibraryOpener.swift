import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmScheduling
import VoiceAlarmStore

/// Opens the library a `LibraryLocation` names: remembers the folders and backend it was given,
/// builds the scheduler the data dir uses, and switches backends when another one is asked for
/// (everything leaves the old backend before anything enters the new one).
///
/// ```swift
/// let (service, switched) = try LibraryOpener.open(LibraryLocation(dataDirectory: dir, backend: .systemd))
/// ```
public enum LibraryOpener {
    /// The settings keys the folders and backend are remembered under.
    static let soundsKey = "sounds-dir", unitsKey = "unit-dir", schedulerKey = "scheduler"

    /// - Returns: the service, and what a backend switch did when one happened.
    /// - Throws: `StoreError` when the library cannot be opened; scheduler errors when a backend
    ///   cannot be built or the switch fails.
    public static func open(_ location: LibraryLocation, warn: @escaping (String) -> Void = { _ in })
        throws -> (AlarmService, BackendSwitch?) {
        let store = try LibraryStore(dataDirectory: location.dataDirectory, busyTimeout: location.busyTimeoutMilliseconds)
        var remembered = try store.settings()
        for (given, key) in [(location.soundsDirectory, soundsKey), (location.unitDirectory, unitsKey)] {
            if let given, remembered[key] != given {
                try store.setSetting(key, given)
                remembered[key] = given
            }
        }
        let sounds = try SoundsDirectory(path: remembered[soundsKey] ?? "\(store.dataDirectory)/Sounds")
        let current = SchedulerBackend(rawValue: remembered[schedulerKey] ?? "") ?? .embedded
        let unitDirectory = remembered[unitsKey] ?? SystemdTimerScheduler.defaultUnitDirectory

        var remade = false
        func scheduler(_ backend: SchedulerBackend) throws -> any AlarmScheduler {
            switch backend {
            case .embedded:
                do {
                    return try EmbeddedScheduler(dataDirectory: store.dataDirectory)
                } catch StoreError.damaged(let path, let reason) {
                    // The list is made from the library: a damaged one is moved aside and made again.
                    let aside = try FileSystem.moveAside(path)
                    warn("warning: the embedded scheduler's list was damaged (\(reason)); kept as \(aside) and made again from the library")
                    remade = true
                    return try EmbeddedScheduler(dataDirectory: store.dataDirectory)
                }
            case .systemd:
                return try SystemdTimerScheduler(unitDirectory: unitDirectory, dataDirectory: store.dataDirectory,
                                                 executable: location.executable, soundsDirectory: sounds.path,
                                                 device: remembered[SettingsEditor.deviceKey])
            }
        }

        guard let requested = location.backend, requested != current else {
            let service = AlarmService(store: store, sounds: sounds, scheduler: try scheduler(current), warn: warn)
            if remade { _ = try service.sync.reconcile() }
            return (service, nil)
        }
        let old = try scheduler(current)
        let held = try old.alarms()
        for alarm in held { try old.cancel(id: alarm.id) }
        try store.setSetting(schedulerKey, requested.rawValue)
        let service = AlarmService(store: store, sounds: sounds, scheduler: try scheduler(requested), warn: warn)
        let report = try service.sync.reconcile()
        return (service, BackendSwitch(from: current, to: requested, cancelled: held.count, report: report))
    }
}
