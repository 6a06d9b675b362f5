import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// Where a library lives and what the command line asked of it: the data dir, and the
/// `--sounds-dir`, `--unit-dir` and `--scheduler` choices, which are remembered in the data dir
/// once given so that later commands — and a `ring` started by systemd — find the same files.
package struct LibraryLocation: Sendable {
    /// The library's folder.
    package var dataDirectory: String
    /// `--sounds-dir`, absolute, when given.
    package var soundsDirectory: String?
    /// `--unit-dir`, absolute, when given.
    package var unitDirectory: String?
    /// `--scheduler`, when given: a switch when it differs from the remembered one.
    package var backend: SchedulerBackend?
    /// This binary's absolute path, for systemd units and the daemon to run it again.
    package var executable: String
    /// How long to wait for another process's hold on the database, in milliseconds: a ring
    /// waits briefly, then rings from what it can read.
    package var busyTimeoutMilliseconds: Int32 = 10_000

    /// A location; only the data dir is required.
    package init(
        dataDirectory: String, soundsDirectory: String? = nil, unitDirectory: String? = nil,
        backend: SchedulerBackend? = nil, executable: String = LibraryLocation.stableExecutable()
    ) {
        self.dataDirectory = dataDirectory
        self.soundsDirectory = soundsDirectory
        self.unitDirectory = unitDirectory
        self.backend = backend
        self.executable = executable
    }

    /// The running binary's absolute path.
    package static var currentExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    }

    /// Whether a binary lives in a build folder (`.build/`), which `make clean` or moving the
    /// checkout removes: units and the daemon must not point there.
    package static func isInBuildFolder(_ path: String) -> Bool { path.contains("/.build/") }

    /// The binary units and the daemon should run: this one, unless it lives in a build folder
    /// and an installed `voicealarm` is on `PATH` — then that one, which stays where it is.
    package static func stableExecutable(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let current = currentExecutable
        guard isInBuildFolder(current) else { return current }
        for folder in (environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(folder)/voicealarm"
            guard candidate.hasPrefix("/"), !isInBuildFolder(candidate), FileManager.default.isExecutableFile(atPath: candidate) else { continue }
            return URL(fileURLWithPath: candidate).resolvingSymlinksInPath().path
        }
        return current
    }

    /// The data dir when none is given: `$VOICEALARM_HOME`, else `$XDG_DATA_HOME/voicealarm`, else
    /// `~/.local/share/voicealarm` (absolute), and the variable it came from (nil for the last).
    package static func defaultDataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> (path: String, variable: String?) {
        for name in ["VOICEALARM_HOME", "XDG_DATA_HOME"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            return (FileSystem.absolutePath(value) + (name == "XDG_DATA_HOME" ? "/voicealarm" : ""), name)
        }
        return ((environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.local/share/voicealarm", nil)
    }

    /// Whether a library has been made here (its database exists).
    package var hasLibrary: Bool { FileManager.default.fileExists(atPath: "\(dataDirectory)/voicealarm.sqlite") }

    /// The alarms run a binary inside a build folder ('make clean' or a moved checkout would
    /// stop them): a warning for `doctor`, `alarm add` and `service install`; nil otherwise.
    package var buildFolderProblem: Doctor.Problem? {
        Self.isInBuildFolder(executable) ? .buildFolder(executable: executable) : nil
    }
}
