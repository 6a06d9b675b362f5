import Foundation
import Testing
import TestSupport

@Suite("Interrupting a render leaves nothing half-written")
struct InterruptTests {
    @Test("SIGINT and SIGTERM while the ringtone is being written", .timeLimit(.minutes(1)),
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
        // Wait (bounded) until the temporary file exists: the render is mid-write.
        var sawTemporary = false
        for _ in 0..<2000 where process.isRunning {
            if dir.contents().contains(where: { $0.hasSuffix(".partial") }) { sawTemporary = true; break }
            await pause(0.002)
        }
        #expect(sawTemporary, "the render finished before it could be interrupted")
        kill(process.processIdentifier, signalNumber)
        await process.ended()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 128 + signalNumber)
        #expect(stderr.contains("error: interrupted"))
        #expect(dir.contents() == ["long.wav", "out.m4a"])
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "the previous ringtone")
    }
}
