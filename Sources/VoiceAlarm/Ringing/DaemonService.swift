import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmScheduling
import VoiceAlarmStore

/// `voicealarm service install | remove | status`: the embedded scheduler's daemon as a systemd
/// user service (`UserServiceUnit`), so alarms ring without a terminal left open — running the
/// installed binary, with the data dir and the remembered device.
///
/// For the default data dir, the unit the Debian package ships (`voicealarm-daemon.service`)
/// is preferred when it runs this binary: installing enables it rather than writing one.
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

    /// A user service unit, written or shipped (named here for the command line, which does not
    /// import the scheduling module).
    package typealias Unit = UserServiceUnit
    /// The units the package ships (`ShippedUnit`).
    package typealias Shipped = ShippedUnit

    /// The unit `install` installs: the package's when it fits, else one written for this data dir.
    package let unit: UserServiceUnit
    /// The data dir's unit of the other origin, when there is one: the written one beside the
    /// package's that fits, or the package's when it serves this data dir with another binary.
    /// `install` retires it when installed; `remove` removes it too.
    package let other: UserServiceUnit?

    /// - Throws: `Refusal.systemdBackend` for a library on systemd timers.
    package init(service: AlarmService, location: LibraryLocation) throws {
        guard service.scheduler.ringsThroughDaemon else { throw Refusal.systemdBackend }
        let remembered = try service.store.settings()
        let written = try UserServiceUnit(
            .daemon, unitDirectory: remembered.unitDirectory ?? SystemdTimerScheduler.defaultUnitDirectory,
            dataDirectory: service.dataDirectory, executable: location.executable,
            device: remembered.device)
        (unit, other) = Self.choose(written)
    }

    /// The unit `status` and `doctor` speak of: `unit` when installed, else `other` when it is, else `unit`.
    package var current: UserServiceUnit { Self.current(unit, other) }

    /// Installs `unit` (see `UserServiceUnit.install`) after retiring `other` when it is installed.
    /// - Returns: whether `unit` was already installed, and the unit retired, if any.
    /// - Throws: `SchedulerError` when a folder cannot be written or systemctl fails.
    package func install() throws -> (existed: Bool, retired: UserServiceUnit?) {
        try Self.install(unit, retiring: other)
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

    /// The package's unit for `written`'s role instead of `written`, when it serves the same data
    /// dir — the default one, as the user manager's environment (else this process's) gives it —
    /// from the folder systemd reads; `other` is the one not chosen that also serves it.
    static func choose(_ written: UserServiceUnit) -> (unit: UserServiceUnit, other: UserServiceUnit?) {
        guard written.unitDirectory == SystemdTimerScheduler.defaultUnitDirectory,
            let shipped = ShippedUnit.find(written.role), shipped.servesDefaultDataDirectory(written.role)
        else { return (written, nil) }
        let environment = written.managerEnvironment().flatMap { $0["HOME"] == nil ? nil : $0 } ?? ProcessInfo.processInfo.environment
        let served = LibraryLocation.defaultDataDirectory(environment: environment).path
        guard PrivateFolder.same(served, written.dataDirectory) else { return (written, nil) }
        let packaged = written.shipped(shipped)
        return shipped.runs(written.role, executable: written.executable) ? (packaged, written) : (written, packaged)
    }

    static func current(_ unit: UserServiceUnit, _ other: UserServiceUnit?) -> UserServiceUnit {
        if !unit.isInstalled, let other, other.isInstalled { return other }
        return unit
    }

    static func install(_ unit: UserServiceUnit, retiring other: UserServiceUnit?) throws -> (existed: Bool, retired: UserServiceUnit?) {
        var retired: UserServiceUnit?
        if let other, other.isInstalled {
            try other.remove()
            retired = other
        }
        return (try unit.install(), retired)
    }

    /// Stops, disables and removes (or, the package's, disables) whichever of `unit` and `other` is installed.
    /// - Returns: the units it removed.
    static func removeInstalled(_ unit: UserServiceUnit, _ other: UserServiceUnit?) throws -> [UserServiceUnit] {
        try [unit, other].compactMap { $0 }.filter(\.isInstalled).map { installed in
            try installed.remove()
            return installed
        }
    }
}
