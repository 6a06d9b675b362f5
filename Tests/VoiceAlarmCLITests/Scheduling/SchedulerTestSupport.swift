import Foundation
import TestSupport
import Testing

/// Runs the real daemon under libfaketime, starting at `fakeStart` (UTC), until stopped.
final class FakeTimeDaemon {
    let process = Process()
    let err = Pipe()
    let dataDir: String

    /// - Parameters:
    ///   - directory: where the daemon starts; for another user, by default a folder it may enter.
    ///   - timeZone: the daemon's `TZ`, in which `fakeStart` is read too.
    init(
        _ lib: RingLibrary, fakeStart: String, maxRing: Int = 2, stdout: Pipe? = nil, user: String? = nil, binary: String = ProjectPaths.binary,
        directory: String? = nil, timeZone: String = "UTC"
    ) throws {
        dataDir = lib.dataDir
        let command = [
            FakeClock.wrapper, "-f", "@\(fakeStart)", binary, "--data-dir", lib.dataDir,
            "daemon", "--poll-seconds", "1", "--max-ring-seconds", "\(maxRing)",
        ]
        process.executableURL = URL(fileURLWithPath: user == nil ? command[0] : "/usr/sbin/runuser")
        process.arguments = user.map { ["-u", $0, "--"] + command } ?? Array(command.dropFirst())
        var environment = lib.devices.environment
        environment["TZ"] = timeZone
        process.environment = environment
        process.standardError = err
        process.standardOutput = stdout ?? FileHandle.nullDevice
        // Another user may not reach the checkout (a clone in a 0700 folder): start where they may,
        // unless the test asks for a folder of its own.
        if let folder = directory ?? (user != nil ? lib.dir.path : nil) { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        try process.run()
    }

    /// Waits (at most `seconds`) until the event log contains `text`.
    func waitForEvent(_ text: String, seconds: Double = 40) async -> Bool {
        for _ in 0..<Int(seconds * 10) {
            if ((try? String(contentsOfFile: "\(dataDir)/events.log", encoding: .utf8)) ?? "").contains(text) { return true }
            await pause(0.1)
        }
        return false
    }

    /// SIGTERM to the daemon itself (its pid is in the lock file), then its exit status and stderr.
    func stop() async -> (Int32, String) {
        for _ in 0..<100 where lockPID == nil { await pause(0.05) }
        if let pid = lockPID { kill(pid, SIGTERM) }
        await process.ended()
        return (process.terminationStatus, String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    private var lockPID: Int32? {
        (try? String(contentsOfFile: "\(dataDir)/daemon.lock", encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}

/// Another local account, unprivileged (made once; two suites may ask at once): its name.
func testAccount() async throws -> String {
    let user = "voicealarm-tester"
    if (try await ProcessRunner.run("/usr/bin/id", [user])).status != 0 {
        let made = try await ProcessRunner.run("/usr/sbin/useradd", ["-M", user])
        let exists = made.status == 0 ? true : try await ProcessRunner.run("/usr/bin/id", [user]).status == 0  // made by another suite meanwhile
        guard exists else {
            throw TestSupportError("useradd \(user) failed: \(made.stderr)")
        }
    }
    return user
}

/// Runs `executable` as the other account `user` (`runuser`), started in `folder`, a folder of the
/// test's that the account may enter.
///
/// Never in the test's own working folder: a checkout in a 0700 folder (a clone in `mktemp -d`, a
/// home folder) is out of the account's reach, and a process started in a folder it may not enter
/// cannot start processes of its own (Foundation's `Process` enters its parent's folder first: the
/// daemon's rings fail with "Permission denied"). So everything the account reads or runs is copied
/// into the test's folders first (the binary, a sample, a script), never read from the checkout.
func runAs(
    _ user: String, in folder: String, _ executable: String, _ arguments: [String],
    environment: [String: String]? = nil
) async throws -> ProcessResult {
    try await ProcessRunner.run("/usr/sbin/runuser", ["-u", user, "--", executable] + arguments, environment: environment, currentDirectory: folder)
}

/// An unprivileged user for the test (made once; two suites may ask at once), and a copy of the
/// binary anyone may run; the library's folder becomes that user's.
func unprivileged(_ lib: RingLibrary) async throws -> (user: String, binary: String) {
    let user = try await testAccount()
    let binary = lib.dir.file("bin/voicealarm")
    try FileManager.default.createDirectory(atPath: lib.dir.file("bin"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: ProjectPaths.binary, toPath: binary)
    chmod(lib.dir.path, 0o755)
    for path in [lib.dir.path, lib.devices.directory.path] { try await ProcessRunner.mustRun("/bin/chown", ["-R", user, path]) }
    return (user, binary)
}
