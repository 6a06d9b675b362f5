import Foundation
import TestSupport
import Testing
import VoiceAlarm
import VoiceAlarmFiles

@Suite("LogFile: lines only ever added at the end, never through a link, and every failure said")
struct LogFileTests {
    @Test("Appends go to the end in order; the file is made private and nothing stays open")
    func appends() throws {
        let dir = TemporaryDirectory("log")
        let log = LogFile(path: dir.file("events.log"))
        for line in ["one\n", "two\n", "three\n"] { try log.append(line) }
        #expect(try String(contentsOfFile: log.path, encoding: .utf8) == "one\ntwo\nthree\n")
        #expect(try FileSystem.status(of: log.path).permissions == 0o600)
        #expect(!hasOpenDescriptor(on: log.path))
    }

    @Test(
        "A symbolic link in the log's place is refused (ELOOP), whether it points at a file or at nothing",
        arguments: [true, false])
    func refusesLinks(targetExists: Bool) throws {
        let dir = TemporaryDirectory("log")
        let target = dir.file("someone-else.txt")
        if targetExists {
            try plantLink(dir.file("events.log"), to: target)
        } else {
            try FileManager.default.createSymbolicLink(atPath: dir.file("events.log"), withDestinationPath: target)
        }
        #expect(throws: SystemError(operation: "open", path: dir.file("events.log"), code: ELOOP)) {
            try LogFile(path: dir.file("events.log")).append("line\n")
        }
        #expect((try? String(contentsOfFile: target, encoding: .utf8)) == (targetExists ? "theirs\n" : nil))
    }

    @Test(
        "In a read-only folder neither a new log nor an existing one takes a line (EROFS)", .timeLimit(.minutes(1)),
        arguments: [false, true])
    func readOnlyFolder(logExists: Bool) async throws {
        let folder = try await ReadOnlyFolder("log-ro") { dir in
            if logExists { try "earlier\n".write(toFile: dir.file("events.log"), atomically: false, encoding: .utf8) }
        }
        #expect(throws: SystemError(operation: "open", path: folder.file("events.log"), code: EROFS)) {
            try EventLog(dataDirectory: folder.path).record("ringing alarm x", at: Date())
        }
    }

    @Test("On a full disk the line is refused with ENOSPC, not lost without a word", .timeLimit(.minutes(1)))
    func fullDisk() async throws {
        let disk = try await SmallDisk(bytes: 64 * 1024)
        // Fill it: `head` stops with an error once nothing more fits.
        _ = try await ProcessRunner.run("/bin/sh", ["-c", "head -c 1048576 /dev/zero > \(disk.file("filler"))"])
        #expect(throws: SystemError(operation: "write", path: disk.file("events.log"), code: ENOSPC)) {
            try LogFile(path: disk.file("events.log")).append(String(repeating: "x", count: 8192) + "\n")
        }
    }
}
