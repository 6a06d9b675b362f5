import Foundation
import TestSupport
import Testing
import VoiceAlarmFiles
import VoiceAlarmScheduling

/// Starts util-linux's `flock` holding the lock on `path` (it writes its shell's pid there, as a
/// holder does) until `gate` is removed; returns at once with the running task.
private func holdLock(_ path: String, until gate: String) throws -> Task<ProcessResult, any Error> {
    guard FileManager.default.createFile(atPath: gate, contents: nil) else { throw TestSupportError("cannot create \(gate)") }
    let script = "echo $$ > \"$1\"; echo $$; while [ -e \"$2\" ]; do sleep 0.05; done"
    return Task { try await ProcessRunner.run("flock", ["--nonblock", path, "sh", "-c", script, "holder", path, gate]) }
}

@Suite("LockFile: an exclusive flock held while the value lives, naming its holder, refusing links")
struct LockFileTests {
    @Test("Taking the lock writes this pid; it is held while the value lives and free after; a second taker in this process is refused")
    func takesAndReleases() throws {
        let dir = TemporaryDirectory("lock")
        let path = dir.file("daemon.lock")
        #expect(!LockFile.isHeld(path), "no file, no holder")
        do {
            let lock = try LockFile(acquiring: path)
            #expect(lock.pidNotRecorded == nil)
            #expect(LockFile.holder(of: path) == getpid())
            #expect(LockFile.isHeld(path))
            #expect(throws: LockFile.Problem.held(by: getpid())) { _ = try LockFile(acquiring: path) }
            #expect(try FileSystem.status(of: path).permissions == 0o600)
        }
        #expect(!LockFile.isHeld(path))
        #expect(!hasOpenDescriptor(on: path))
        _ = try LockFile(acquiring: path)
    }

    @Test(
        "A lock another process holds (util-linux flock) is refused with that process's pid, and taken once it lets go",
        .timeLimit(.minutes(1)))
    func heldByAnotherProcess() async throws {
        let dir = TemporaryDirectory("lock")
        let path = dir.file("daemon.lock"), gate = dir.file("gate")
        let holder = try holdLock(path, until: gate)
        defer { FileSystem.remove(gate) }  // the holder lets go however the test ends
        #expect(await eventually(within: 20) { LockFile.isHeld(path) && LockFile.holder(of: path) != nil })

        var refusal: LockFile.Problem?
        do { _ = try LockFile(acquiring: path) } catch { refusal = error }
        var daemonRefusal: SchedulerError?
        do { _ = try DaemonLock(dataDirectory: dir.path) } catch let error as SchedulerError { daemonRefusal = error }

        FileSystem.remove(gate)
        let result = try await holder.value
        #expect(result.status == 0, "\(result.stderr)")
        let pid = try #require(Int32(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(refusal == .held(by: pid))
        #expect(daemonRefusal == .daemonRunning(pid: "\(pid)"))
        #expect(!LockFile.isHeld(path), "released with its holder")
        #expect(try LockFile(acquiring: path).pidNotRecorded == nil)
        #expect(LockFile.holder(of: path) == getpid())
    }

    @Test("A symbolic link in the lock's place is refused (ELOOP), never written through, and holds nothing")
    func refusesLinks() throws {
        let dir = TemporaryDirectory("lock")
        try plantLink(dir.file("daemon.lock"), to: dir.file("someone-else.txt"))
        #expect(throws: LockFile.Problem.system(SystemError(operation: "open", path: dir.file("daemon.lock"), code: ELOOP))) {
            _ = try LockFile(acquiring: dir.file("daemon.lock"))
        }
        #expect(!LockFile.isHeld(dir.file("daemon.lock")))
        #expect(try String(contentsOfFile: dir.file("someone-else.txt"), encoding: .utf8) == "theirs\n")
        #expect(throws: SchedulerError.lock(path: dir.file("daemon.lock"), reason: "is a symbolic link, which is not followed; remove it")) {
            _ = try DaemonLock(dataDirectory: dir.path)
        }
    }

    @Test("In a read-only folder the lock cannot be made (EROFS), and a holder there is still seen", .timeLimit(.minutes(1)))
    func readOnlyFolder() async throws {
        let empty = try await ReadOnlyFolder("lock-ro")
        #expect(throws: LockFile.Problem.system(SystemError(operation: "open", path: empty.file("daemon.lock"), code: EROFS))) {
            _ = try LockFile(acquiring: empty.file("daemon.lock"))
        }
        #expect(throws: SchedulerError.lockUnavailable(path: empty.file("daemon.lock"), reason: "Read-only file system")) {
            _ = try DaemonLock(dataDirectory: empty.path)
        }

        // A daemon that took its lock before the folder became read-only is still seen holding it.
        let gates = TemporaryDirectory("lock-gate")
        let folder = try await ReadOnlyFolder("lock-ro-held") { try Data().write(to: URL(fileURLWithPath: $0.file("daemon.lock"))) }
        let holder = try holdLock(folder.file("daemon.lock"), until: gates.file("gate"))
        defer { FileSystem.remove(gates.file("gate")) }
        #expect(await eventually(within: 20) { DaemonLock.isHeld(dataDirectory: folder.path) })
        FileSystem.remove(gates.file("gate"))
        _ = try await holder.value
        #expect(!DaemonLock.isHeld(dataDirectory: folder.path))
    }

    @Test("On a full disk the lock is still taken; the pid that could not be written is reported", .timeLimit(.minutes(1)))
    func fullDisk() async throws {
        let disk = try await SmallDisk(bytes: 64 * 1024)
        _ = try await ProcessRunner.run("/bin/sh", ["-c", "head -c 1048576 /dev/zero > \(disk.file("filler"))"])
        let lock = try DaemonLock(dataDirectory: disk.path)
        #expect(lock.pidNotRecorded == SystemError(operation: "write", path: disk.file("daemon.lock"), code: ENOSPC))
        #expect(DaemonLock.isHeld(dataDirectory: disk.path))
        #expect(LockFile.holder(of: disk.file("daemon.lock")) == nil, "no pid rather than a wrong one")
    }
}
