import Foundation
import VoiceAlarmScheduling

/// `voicealarm service install --mqtt`: the Home Assistant bridge (`voicealarm mqtt`) as a
/// systemd user service beside the daemon's (`voicealarm-mqtt-<the daemon's id>.service`), or the
/// package's `voicealarm-mqtt.service` for the default data dir. It runs with the broker's
/// settings remembered in the data dir, so it carries none itself; neither unit needs the other.
package struct HomeService {
    /// The unit `install` installs: the package's when it fits, else one written for this data dir.
    package let unit: UserServiceUnit
    /// The data dir's bridge unit of the other origin, when there is one.
    package let other: UserServiceUnit?

    /// The bridge's unit for `daemon`'s data dir, in the same folder.
    /// - Throws: `SchedulerError.unsafePath` for a path a unit file cannot carry.
    package init(beside daemon: DaemonService) throws {
        let written = try UserServiceUnit(
            .mqtt, unitDirectory: daemon.unit.unitDirectory, dataDirectory: daemon.unit.dataDirectory, executable: daemon.unit.executable,
            device: nil)
        (unit, other) = DaemonService.choose(written)
    }

    /// Installs `unit` after retiring `other` when it is installed.
    /// - Returns: whether `unit` was already installed, and the unit retired, if any.
    /// - Throws: `SchedulerError` when a folder cannot be written or systemctl fails.
    package func install() throws -> (existed: Bool, retired: UserServiceUnit?) {
        try DaemonService.install(unit, retiring: other)
    }

    /// Stops, disables and removes (or, the package's, disables) whichever of its units is installed.
    /// - Returns: the units it removed.
    @discardableResult
    package func removeIfInstalled() throws -> [UserServiceUnit] {
        try DaemonService.removeInstalled(unit, other)
    }
}
