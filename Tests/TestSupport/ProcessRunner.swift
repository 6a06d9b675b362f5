import Foundation
import VoiceAlarmFiles

/// What a finished process left behind.
///
/// Standard output is kept as bytes and read as text only when asked: several tools write raw
/// samples there, and decoding megabytes of them as UTF-8 (repairing every invalid sequence) costs
/// seconds under Swift Testing, which records a backtrace for each error the standard library's
/// validation raises internally.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stderr: String
    public var stdoutData: Data
    /// Standard output as text.
    public var stdout: String { String(decoding: stdoutData, as: UTF8.self) }

    public init(status: Int32, stderr: String, stdoutData: Data) {
        self.status = status
        self.stderr = stderr
        self.stdoutData = stdoutData
    }
}

/// Runs programs for tests: the voicealarm binary, ffmpeg, ffprobe, python.
public enum ProcessRunner {
    /// Runs `executable` (looked up on PATH unless it contains a slash) without holding a thread
    /// while it runs: its stdout and stderr go to files of their own, the task resumes from the
    /// process's termination handler, and the files are read then. The parent keeps no
    /// descriptor of them while the process runs (no pipe to drain, none to leak: Foundation
    /// watches children with `select`, which fails past descriptor 1,023).
    /// - Parameter currentDirectory: where the process starts; by default the test's own folder.
    @discardableResult
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: String? = nil
    ) async throws -> ProcessResult {
        let process = prepare(executable, arguments, environment: environment)
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let base = NSTemporaryDirectory() + "voicealarm-run-\(UUID().uuidString)"
        let outPath = base + ".out", errPath = base + ".err"
        defer { for path in [outPath, errPath] { try? FileManager.default.removeItem(atPath: path) } }
        for path in [outPath, errPath] {
            guard FileManager.default.createFile(atPath: path, contents: nil) else { throw TestSupportError("cannot create \(path)") }
        }
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            do {
                let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
                let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
                process.standardOutput = out
                process.standardError = err
                process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
                defer { try? out.close(); try? err.close() }  // the child has its own copies
                try process.run()
            } catch {
                continuation.resume(throwing: error)
            }
        }
        let outData = FileSystem.contents(outPath) ?? Data()
        let errData = FileSystem.contents(errPath) ?? Data()
        return ProcessResult(
            status: status,
            stderr: String(decoding: errData, as: UTF8.self), stdoutData: outData)
    }

    /// A process for `executable` (looked up on PATH unless it contains a slash), stdin empty;
    /// not started.
    private static func prepare(_ executable: String, _ arguments: [String], environment: [String: String]?) -> Process {
        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        return process
    }

    /// Starts `executable` and does not wait for it (a `defer` cannot): for clean-up a test
    /// need not see finish, such as stopping a tmux server.
    public static func start(_ executable: String, _ arguments: [String]) {
        let process = prepare(executable, arguments, environment: nil)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }

    /// Runs a shell command line and waits for the shell alone (`system`): for programs that
    /// leave a background process behind (tmux starting its server), which Foundation's `Process`
    /// would not leave running the same way. `system` waits on a thread of its own, not on one of
    /// the test run's.
    @discardableResult
    public static func runLeavingBackground(_ commandLine: String) async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let status = system(commandLine + " </dev/null >/dev/null 2>&1")
                continuation.resume(returning: status == -1 ? -1 : (status >> 8) & 0xFF)
            }
        }
    }

    /// Runs a command that must succeed (fixture generation); fails loudly otherwise.
    public static func mustRun(_ executable: String, _ arguments: [String]) async throws {
        let result = try await run(executable, arguments)
        guard result.status == 0 else {
            throw TestSupportError("\(executable) \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
        }
    }
}

/// A test helper that could not do its job (a missing tool, a fixture that failed to generate).
public struct TestSupportError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
