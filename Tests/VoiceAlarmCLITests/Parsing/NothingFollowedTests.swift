import Foundation
import TestSupport
import Testing

@Suite("Files in the data dir are never followed through a symbolic link")
struct NothingFollowedTests {
    @Test(
        "A symlinked events.log and pid file: the ring plays, and nothing is written through either link",
        .timeLimit(.minutes(1)))
    func ringDoesNotFollow() async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm()
        let elsewhere = lib.dir.file("elsewhere.txt")
        try "someone else's file\n".write(toFile: elsewhere, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: "\(lib.dataDir)/events.log", withDestinationPath: elsewhere)
        try FileManager.default.createDirectory(atPath: "\(lib.dataDir)/ringing", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(lib.dataDir)/ringing/\(id).pid", withDestinationPath: elsewhere)

        let result = try await lib.run(["ring", id, "--max-seconds", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: elsewhere, encoding: .utf8) == "someone else's file\n")
        #expect(FileSystemKind.of("\(lib.dataDir)/events.log") == .symbolicLink, "the link is left as it was, not followed")
        #expect(!FileManager.default.fileExists(atPath: "\(lib.dataDir)/ringing/\(id).pid"), "the pid file replaced the link, then went")
    }

    @Test(
        "A symlinked daemon.lock is refused with the reason; a symlinked last-look file is replaced, not written through",
        .timeLimit(.minutes(1)))
    func daemonDoesNotFollow() async throws {
        let lib = try RingLibrary()
        _ = try await lib.alarm()
        let elsewhere = lib.dir.file("elsewhere.txt")
        try "someone else's file\n".write(toFile: elsewhere, atomically: true, encoding: .utf8)

        try FileManager.default.createSymbolicLink(atPath: "\(lib.dataDir)/daemon.lock", withDestinationPath: elsewhere)
        let refused = try await boundedRun(["--data-dir", lib.dataDir, "daemon"], seconds: 20).result
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("error: \(lib.dataDir)/daemon.lock: "), "\(refused.stderr)")
        #expect(refused.stderr.contains("is a symbolic link, which is not followed; remove it"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: elsewhere, encoding: .utf8) == "someone else's file\n")
        try FileManager.default.removeItem(atPath: "\(lib.dataDir)/daemon.lock")

        let look = "\(lib.dataDir)/daemon-last-look"
        try FileManager.default.createSymbolicLink(atPath: look, withDestinationPath: elsewhere)
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: ProjectPaths.binary)
        daemon.arguments = ["--data-dir", lib.dataDir, "-q", "daemon"]
        daemon.environment = lib.devices.environment
        daemon.standardError = FileHandle.nullDevice
        daemon.standardOutput = FileHandle.nullDevice
        try daemon.run()
        for _ in 0..<200 where FileSystemKind.of(look) != .regular { await pause(0.05) }
        kill(daemon.processIdentifier, SIGTERM)
        await daemon.ended()
        #expect(FileSystemKind.of(look) == .regular, "the daemon wrote its own file in place of the link")
        #expect(try String(contentsOfFile: elsewhere, encoding: .utf8) == "someone else's file\n")
    }
}

/// What is at a path, without following a final link (as `lstat` says).
enum FileSystemKind: Equatable {
    case missing, regular, symbolicLink, other

    static func of(_ path: String) -> FileSystemKind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }
}
