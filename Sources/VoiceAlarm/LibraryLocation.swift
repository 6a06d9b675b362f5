import Foundation

/// Where a library lives and what the command line asked of it: the data dir, and the
/// `--sounds-dir`, `--unit-dir` and `--scheduler` choices, which are remembered in the data dir
/// once given so that later commands — and a `ring` started by systemd — find the same files.
public struct LibraryLocation: Sendable {
    /// The library's folder.
    public var dataDirectory: String
    /// `--sounds-dir`, absolute, when given.
    public var soundsDirectory: String?
    /// `--unit-dir`, absolute, when given.
    public var unitDirectory: String?
    /// `--scheduler`, when given: a switch when it differs from the remembered one.
    public var backend: SchedulerBackend?
    /// This binary's absolute path, for systemd units and the daemon to run it again.
    public var executable: String
    /// How long to wait for another process's hold on the database, in milliseconds: a ring
    /// waits briefly, then rings from what it can read.
    public var busyTimeoutMilliseconds: Int32 = 10_000

    /// A location; only the data dir is required.
    public init(dataDirectory: String, soundsDirectory: String? = nil, unitDirectory: String? = nil,
                backend: SchedulerBackend? = nil, executable: String = LibraryLocation.currentExecutable) {
        self.dataDirectory = dataDirectory
        self.soundsDirectory = soundsDirectory
        self.unitDirectory = unitDirectory
        self.backend = backend
        self.executable = executable
    }

    /// The running binary's absolute path.
    public static var currentExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    }
}
