import Foundation
import VoiceAlarmScheduling

/// `voicealarm service install --web`: `voicealarm serve` as a systemd user service beside the
/// daemon's (`voicealarm-web-<the daemon's id>.service`), running the installed binary with the
/// data dir and `serve`'s options. Neither unit needs the other: the daemon rings the alarms
/// whether the web page is up or not, and the page restarts on its own when it fails.
///
/// For the default data dir and serve's default options, the unit the Debian package ships
/// (`voicealarm-web.service`) is preferred, as `DaemonService` prefers the daemon's.
///
/// ```swift
/// let daemon = try DaemonService(service: service, location: location)
/// let web = try WebService(beside: daemon, options: .init(listen: "0.0.0.0:8470"))
/// try daemon.unit.install()
/// try web.unit.install()
/// ```
package struct WebService {
    /// `serve`'s options the unit runs it with, already checked by the caller.
    package struct Options: Sendable, Equatable {
        /// `ADDR:PORT` as `serve --listen` reads it; nil for serve's default.
        package var listen: String?
        /// Absolute paths of the person's own certificate and key, both or neither.
        package var certificateFile: String?
        package var keyFile: String?
        /// The sockets `serve` holds for `listen` (`ListenStream=` values), for the socket unit
        /// that keeps them bound; empty when the kernel picks the port.
        package var listening: [String]
        /// Whether `[::]` among them takes IPv4 too.
        package var dualStack: Bool

        package init(listen: String? = nil, certificateFile: String? = nil, keyFile: String? = nil, listening: [String] = [], dualStack: Bool = false) {
            precondition((certificateFile == nil) == (keyFile == nil), "a certificate goes with its key")
            precondition([certificateFile, keyFile].allSatisfy { $0?.hasPrefix("/") ?? true }, "a unit needs absolute paths")
            self.listen = listen
            self.certificateFile = certificateFile
            self.keyFile = keyFile
            self.listening = listening
            self.dualStack = dualStack
        }

        /// The words after `serve` in the unit's command line.
        package var serveArguments: [String] {
            var words: [String] = []
            if let listen { words += ["--listen", listen] }
            if let certificateFile, let keyFile { words += ["--cert", certificateFile, "--key", keyFile] }
            // A service's output goes to the journal, which other accounts may read: no pairing
            // link there. The person runs 'voicealarm serve pair' for one.
            words.append("--no-pairing")
            return words
        }
    }

    /// The unit `install` installs: the package's when it fits (the default data dir, serve's
    /// default options, this binary), else one written for this data dir.
    package let unit: UserServiceUnit
    /// The data dir's web unit of the other origin, when there is one (see `DaemonService.other`).
    package let other: UserServiceUnit?

    /// The web page's unit for `daemon`'s data dir, in the same folder; `options` only matter to `install`.
    /// - Throws: `SchedulerError.unsafePath` for an option a unit file cannot carry.
    package init(beside daemon: DaemonService, options: Options = Options()) throws {
        let written = try UserServiceUnit(
            .web(serveArguments: options.serveArguments), unitDirectory: daemon.unit.unitDirectory,
            dataDirectory: daemon.unit.dataDirectory, executable: daemon.unit.executable, device: nil, listening: options.listening,
            dualStack: options.dualStack)
        (unit, other) = DaemonService.choose(written)
    }

    /// The unit `status` and `doctor` speak of: `unit` when installed, else `other` when it is, else `unit`.
    package var current: UserServiceUnit { DaemonService.current(unit, other) }

    /// Installs `unit` after retiring `other` when it is installed.
    /// - Returns: whether `unit` was already installed, and the unit retired, if any.
    /// - Throws: `SchedulerError` when a folder cannot be written or systemctl fails.
    package func install() throws -> (existed: Bool, retired: UserServiceUnit?) {
        try DaemonService.install(unit, retiring: other)
    }

    /// Stops, disables and removes (or, the package's, disables) whichever of its units is installed.
    /// - Returns: the units it removed.
    /// - Throws: `SchedulerError.systemctl` when the user manager refuses the reload.
    @discardableResult
    package func removeIfInstalled() throws -> [UserServiceUnit] {
        try DaemonService.removeInstalled(unit, other)
    }

    /// What to run to finish by hand when no systemd user manager manages the unit's folder.
    package var manualSteps: String { unit.manualSteps }
}
