import Foundation

/// Runs the tests' measuring scripts (`Tests/Support/*.py`) in Python interpreters that stay
/// warm for the whole run (`Tests/Support/warm_python.py`): importing numpy, scipy and pyloudnorm
/// costs about two seconds of CPU per process, more than most measurements. A script runs exactly
/// as `python SCRIPT ARGS...` would and answers with its exit status and output.
///
/// Two interpreters (the machines have two cores); a request goes to the one with fewer waiting.
/// No thread waits for an answer: it arrives through the pipe's readability handler.
public enum WarmPython {
    private static let servers = (0..<2).map { _ in Server() }

    /// Runs `script` (a path) with `arguments`, as the test venv's Python would.
    public static func run(_ script: String, _ arguments: [String]) async throws -> ProcessResult {
        let server = servers.min { $0.waiting < $1.waiting }!
        return try await server.run(script, arguments)
    }

    /// One interpreter: requests in order on its stdin, answers in the same order on its stdout.
    private final class Server: @unchecked Sendable {
        private let lock = NSLock()
        private var process: Process?
        private var requests: FileHandle?
        private var buffer = Data()
        private var log = ""
        private var pending: [CheckedContinuation<ProcessResult, any Error>] = []

        var waiting: Int { lock.withLock { pending.count } }

        func run(_ script: String, _ arguments: [String]) async throws -> ProcessResult {
            let request = try JSONSerialization.data(withJSONObject: ["script": script, "args": arguments]) + Data("\n".utf8)
            return try await withCheckedThrowingContinuation { continuation in
                lock.lock()
                do {
                    let input = try startedInput()
                    pending.append(continuation)
                    do { try input.write(contentsOf: request) } catch { pending.removeLast(); throw error }
                    lock.unlock()
                } catch {
                    lock.unlock()
                    continuation.resume(throwing: TestSupportError("the warm Python cannot take a request: \(error)"))
                }
            }
        }

        /// The interpreter's stdin, starting it the first time (called with the lock held).
        private func startedInput() throws -> FileHandle {
            if let requests, process?.isRunning == true { return requests }
            guard FileManager.default.isExecutableFile(atPath: ProjectPaths.python) else {
                throw TestSupportError("no test Python at \(ProjectPaths.python): run 'make test', which creates it")
            }
            // A write to an interpreter that has just ended fails with EPIPE rather than ending the tests.
            signal(SIGPIPE, SIG_IGN)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ProjectPaths.python)
            process.arguments = ["\(ProjectPaths.root)/Tests/Support/warm_python.py"]
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            // Its own complaints (not a script's: those are in the answers) go to a file a failure names.
            let log = NSTemporaryDirectory() + "voicealarm-warm-python-\(getpid())-\(UInt(bitPattern: ObjectIdentifier(self).hashValue)).log"
            _ = FileManager.default.createFile(atPath: log, contents: nil)  // without it, the complaints are lost, nothing else
            process.standardError = FileHandle(forWritingAtPath: log)
            self.log = log
            output.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                // At the end Foundation would call again and again with nothing: stop listening.
                if data.isEmpty { handle.readabilityHandler = nil }
                self?.receive(data)
            }
            try process.run()
            self.process = process
            requests = input.fileHandleForWriting
            return input.fileHandleForWriting
        }

        /// Answers as they arrive: each complete line resumes the oldest request.
        private func receive(_ data: Data) {
            lock.lock()
            var answered: [(CheckedContinuation<ProcessResult, any Error>, Result<ProcessResult, any Error>)] = []
            if data.isEmpty {
                // The interpreter ended: every waiting request fails, and the next one starts another.
                let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                answered = pending.map { ($0, .failure(TestSupportError("the warm Python ended: \(said.suffix(600))"))) }
                pending.removeAll()
                process = nil
                requests = nil
                buffer.removeAll()
            } else {
                buffer.append(data)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")), !pending.isEmpty {
                    let line = buffer[buffer.startIndex..<newline]
                    buffer.removeSubrange(buffer.startIndex...newline)
                    answered.append((pending.removeFirst(), Result { try Self.answer(Data(line)) }))
                }
            }
            lock.unlock()
            for (continuation, result) in answered { continuation.resume(with: result) }
        }

        private static func answer(_ line: Data) throws -> ProcessResult {
            guard let object = try JSONSerialization.jsonObject(with: line) as? [String: Any],
                let status = object["status"] as? Int, let stdout = object["stdout"] as? String,
                let stderr = object["stderr"] as? String
            else {
                throw TestSupportError("the warm Python answered something else: \(String(decoding: line, as: UTF8.self))")
            }
            return ProcessResult(status: Int32(status), stderr: stderr, stdoutData: Data(stdout.utf8))
        }
    }
}
