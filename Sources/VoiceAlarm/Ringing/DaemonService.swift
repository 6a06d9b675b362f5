import Foundation
import VoiceAlarmCore
import VoiceAlarmScheduling
import VoiceAlarmStore

/// `voicealarm service install | remove | status`: the embedded scheduler's daemon as a systemd
/// user service (`UserServiceUnit`), so alarms ring without a terminal left open — running the
/// installed binary, with the data dir and the remembered device.
package struct DaemonService {
    /// Why the daemon cannot be a service for this library.
    package enum Refusal: ClassifiedError, CustomStringConvertible {
        case systemdBackend
        /// The service is not installed, or no user manager runs it: it cannot be started from here.
        case notStartable(installed: Bool)

        package var description: String {
            switch self {
            case .systemdBackend: "this data dir uses systemd timers, which need no daemon; the service is for the embedded scheduler"
            case .notStartable(let installed):
                installed ? "the alarm service is installed, but no service manager runs it here" : "the alarm service is not installed"
            }
        }

        package var failureKind: FailureKind { .conflict }
        package var failureInput: String? { nil }
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

    /// Starts the installed service now.
    /// - Throws: `DaemonService.Refusal.notStartable` when it is not installed where a user
    ///   manager runs it; `SchedulerError.systemctl` when the start fails.
    package func start() throws {
        let state = unit.state()
        guard state.installed, state.managed else { throw Refusal.notStartable(installed: state.installed) }
        try unit.start()
    }

    /// What to run to finish by hand when no systemd user manager manages the unit's folder.
    package var manualSteps: String { unit.manualSteps }
}
