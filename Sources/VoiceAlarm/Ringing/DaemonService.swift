import Foundation
import VoiceAlarmCore
import VoiceAlarmScheduling
import VoiceAlarmStore

/// `voicealarm service install | remove | status`: the embedded scheduler's daemon as a systemd
/// user service (`UserServiceUnit`), so alarms ring without a terminal left open — running the
/// installed binary, with the data dir and the remembered device.
package struct DaemonService {
    /// Why the daemon cannot be a service for this library.
    package enum Refusal: Error, CustomStringConvertible {
        case systemdBackend
        package var description: String {
            "this data dir uses systemd timers, which need no daemon; the service is for the embedded scheduler"
        }
    }

    package let unit: UserServiceUnit

    /// - Throws: `Refusal.systemdBackend` for a library on systemd timers.
    package init(service: AlarmService, location: LibraryLocation) throws {
        guard service.scheduler.ringsThroughDaemon else { throw Refusal.systemdBackend }
        let remembered = try service.store.settings()
        unit = try UserServiceUnit(.daemon, unitDirectory: remembered.unitDirectory ?? SystemdTimerScheduler.defaultUnitDirectory,
                                   dataDirectory: service.dataDirectory, executable: location.executable,
                                   device: remembered.device)
    }

    /// Why the daemon's sleeps cannot wake a suspended machine (the binary lacks `CAP_WAKE_ALARM`), or nil.
    package var cannotWake: WakeProblem? { Doctor.wake(nil, executable: unit.executable).cannotWake }

    /// What to run to finish by hand when no systemd user manager manages the unit's folder.
    package var manualSteps: String { unit.manualSteps }
}
