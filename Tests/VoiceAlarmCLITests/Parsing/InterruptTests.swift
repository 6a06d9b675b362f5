import Foundation
import TestSupport
import Testing

@Suite("Interrupting a render leaves nothing half-written")
struct InterruptTests {
    @Test(
        "SIGINT and SIGTERM while the ringtone is being written", .timeLimit(.minutes(1)),
        arguments: [SIGINT, SIGTERM])
    func interrupted(_ signalNumber: Int32) async throws {
        let dir = TemporaryDirectory("interrupt")
        let input = dir.file("long.wav")
        try await AudioFixtures.tone(input, seconds: 28)
        let out = dir.file("out.m4a")
        try Data("the previous ringtone".utf8).write(to: URL(fileURLWithPath: out))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProjectPaths.binary)
        process.arguments = ["render", "-o", out, input]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // A thread of its own watches (bounded) for the temporary file and signals the render the
        // moment it appears, mid-write: a test task polling on a busy run's shared threads could
        // look only after the render (under a second) had finished.
        let sawTemporary = SignalledFlag()
        let pid = process.processIdentifier, folder = dir.path
        Thread.detachNewThread {
            for _ in 0..<40_000 {  // 10 s at most
                if ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).contains(where: { $0.hasSuffix(".partial") }) {
                    kill(pid, signalNumber)
                    sawTemporary.set()
                    return
                }
                usleep(250)
            }
        }
        await process.ended()
        #expect(sawTemporary.isSet, "the render finished before it could be interrupted")
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 128 + signalNumber)
        #expect(stderr.contains("error: interrupted"))
        #expect(dir.contents() == ["long.wav", "out.m4a"])
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "the previous ringtone")
    }
}

/// Set once by the watching thread, read by the test after the process ended.
private final class SignalledFlag: @unchecked Sendable {
    // Unchecked: `value` is only touched with `lock` held.
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
