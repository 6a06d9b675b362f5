import Foundation

/// What a finished process left behind.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var stdoutData: Data

    public init(status: Int32, stdout: String, stderr: String, stdoutData: Data) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.stdoutData = stdoutData
    }
}

/// Runs programs for tests: the voicealarm binary, ffmpeg, ffprobe, python.
public enum ProcessRunner {
    /// Runs `executable` (looked up on PATH unless it contains a slash) without holding a thread
    /// while it runs: the pipes are read as data arrives and the task resumes when the process
    /// has ended and both pipes are closed.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) async throws -> ProcessResult {
        let (process, out, err) = prepare(executable, arguments, environment: environment)
        let collected = LaunchCollector()
        defer { withExtendedLifetime((process, out, err)) {} }   // alive until the result is in
        return try await withCheckedThrowingContinuation { continuation in
            collected.whenDone = { continuation.resume(returning: $0) }
            for (pipe, isOut) in [(out, true), (err, false)] {
                pipe.fileHandleForReading.readabilityHandler = { handle in
                    let data = handle.availableData
                    if data.isEmpty { handle.readabilityHandler = nil }
                    collected.add(data, out: isOut)
                }
            }
            process.terminationHandler = { collected.ended($0.terminationStatus) }
            do { try process.run() } catch {
                for pipe in [out, err] { pipe.fileHandleForReading.readabilityHandler = nil }
                continuation.resume(throwing: error)
            }
        }
    }

    /// A process for `executable` (looked up on PATH unless it contains a slash), its stdout and
    /// stderr piped, stdin empty; not started.
    private static func prepare(_ executable: String, _ arguments: [String], environment: [String: String]?) -> (Process, Pipe, Pipe) {
        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        return (process, out, err)
    }

    /// Starts `executable` and does not wait for it (a `defer` cannot): for clean-up a test
    /// need not see finish, such as stopping a tmux server.
    public static func start(_ executable: String, _ arguments: [String]) {
        let (process, _, _) = prepare(executable, arguments, environment: nil)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }

    /// Runs a shell command line and waits for the shell alone: for programs that leave a
    /// background process behind (tmux starting its server). Its output goes nowhere, so no pipe
    /// stays open in the background process; the task resumes when the shell has ended.
    @discardableResult
    public static func runLeavingBackground(_ commandLine: String) async -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", commandLine]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        return await withCheckedContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(returning: -1) }
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

/// What `ProcessRunner.launch` gathers from the pipes' handlers and the termination handler,
/// which run on threads of their own; it finishes once the process ended and both pipes closed.
private final class LaunchCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var out = Data(), err = Data()
    private var outClosed = false, errClosed = false, reported = false
    private var status: Int32?
    var whenDone: ((ProcessResult) -> Void)?

    func add(_ data: Data, out isOut: Bool) {
        lock.lock()
        if data.isEmpty {
            if isOut { outClosed = true } else { errClosed = true }
        } else if isOut { out.append(data) } else { err.append(data) }
        let done = finished()
        lock.unlock()
        done.map { whenDone?($0) }
    }

    func ended(_ code: Int32) {
        lock.lock()
        status = code
        let done = finished()
        lock.unlock()
        done.map { whenDone?($0) }
    }

    /// The result, once: when the process ended and both pipes closed.
    private func finished() -> ProcessResult? {
        guard outClosed, errClosed, !reported, let status else { return nil }
        reported = true
        return ProcessResult(status: status, stdout: String(decoding: out, as: UTF8.self),
                             stderr: String(decoding: err, as: UTF8.self), stdoutData: out)
    }
}
