import Foundation
import TestSupport
import Testing
import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmFiles

@Suite("The file-system seam: links replaced not followed, folders cleaned up, owners told apart, Foundation's errors in one line")
struct FileSystemSeamTests {
    @Test("atomicWrite replaces a symbolic link at its path (pid files, the daemon's last look) and never writes through it")
    func atomicWriteReplacesLinks() throws {
        let dir = TemporaryDirectory("seam")
        let target = dir.file("someone-else.txt")
        try "theirs\n".write(toFile: target, atomically: true, encoding: .utf8)
        let path = dir.file("daemon-last-look")
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        try FileSystem.atomicWrite(Data("1795989600".utf8), to: path)
        #expect(FileSystem.kind(of: path) == .regular)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "1795989600")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "theirs\n")

        let registry = RingingRegistry(dataDirectory: dir.path)
        let id = UUID()
        try FileManager.default.createDirectory(atPath: registry.directory, withIntermediateDirectories: true)
        let pidFile = "\(registry.directory)/\(id.uuidString.lowercased()).pid"
        try FileManager.default.createSymbolicLink(atPath: pidFile, withDestinationPath: target)
        try registry.register(id, pid: 4242)
        #expect(FileSystem.kind(of: pidFile) == .regular)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "theirs\n")
    }

    @Test("The event log is not appended through a symbolic link")
    func eventLogDoesNotFollow() throws {
        let dir = TemporaryDirectory("seam")
        let target = dir.file("someone-else.txt")
        try "theirs\n".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir.file("events.log"), withDestinationPath: target)
        #expect(throws: SystemError(operation: "open", path: dir.file("events.log"), code: ELOOP)) {
            try EventLog(dataDirectory: dir.path).record("ringing alarm x", at: Date())
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "theirs\n")
        #expect(FileSystem.kind(of: dir.file("events.log")) == .symbolicLink)
    }

    @Test("TemporaryFiles.removeAll removes a registered folder and everything in it")
    func registeredFolders() throws {
        let dir = TemporaryDirectory("seam")
        let folder = dir.file(".cache")
        try FileManager.default.createDirectory(atPath: "\(folder)/deep", withIntermediateDirectories: true)
        try Data(count: 10).write(to: URL(fileURLWithPath: "\(folder)/deep/a.f32"))
        TemporaryFiles.registerFolder(folder)
        // Only this test's: the other suites' files in flight share the process's list.
        TemporaryFiles.removeAll(under: dir.path)
        #expect(FileSystem.kind(of: folder) == .missing)
    }

    @Test("A process is told apart from a later one with its pid; abandoned caches and temporaries go, live ones stay")
    func owners() throws {
        let me = ProcessIdentity.current
        #expect(me.isRunning)
        #expect(ProcessIdentity(text: me.text) == me)
        #expect(!ProcessIdentity(pid: me.pid, startTime: me.startTime + 1).isRunning, "a recycled pid is another process")
        #expect(ProcessIdentity(text: "garbage") == nil)

        let dir = TemporaryDirectory("seam")
        let dead = ProcessIdentity(pid: me.pid, startTime: me.startTime + 1).text
        for name in [".voicealarm-cache-\(me.text)-aaaaaaaa", ".voicealarm-cache-\(dead)-bbbbbbbb", ".voicealarm-cache-cccccccc"] {
            try FileManager.default.createDirectory(atPath: dir.file(name), withIntermediateDirectories: true)
        }
        for name in [".r1.m4a.\(me.text).aaaa.partial", ".r2.m4a.\(dead).bbbb.partial", ".r3.m4a.cccc.partial"] {
            try Data(count: 1).write(to: URL(fileURLWithPath: dir.file(name)))
        }
        #expect(BatchClipCache.sweepAbandoned(in: dir.path) == [".voicealarm-cache-\(dead)-bbbbbbbb"])
        FileSystem.removeAbandonedTemporaries(in: dir.path)
        #expect(
            dir.contents() == [
                ".r1.m4a.\(me.text).aaaa.partial", ".r3.m4a.cccc.partial",
                ".voicealarm-cache-\(me.text)-aaaaaaaa", ".voicealarm-cache-cccccccc",
            ])
        // Those that do not name their owner go once nothing has touched them for long enough.
        let later = Date().addingTimeInterval(2 * 3600)
        BatchClipCache.sweepAbandoned(in: dir.path, now: later)
        FileSystem.removeAbandonedTemporaries(in: dir.path, now: later)
        #expect(dir.contents() == [".r1.m4a.\(me.text).aaaa.partial", ".voicealarm-cache-\(me.text)-aaaaaaaa"])
    }

    @Test("Foundation's file errors read as the path and the POSIX reason")
    func foundationErrors() throws {
        let dir = TemporaryDirectory("seam")
        do {
            _ = try FileManager.default.contentsOfDirectory(atPath: dir.file("missing"))
            Issue.record("listed a missing folder")
        } catch {
            #expect(SystemError.isFoundationError(error))
            #expect(SystemError.text(of: error) == "\(dir.file("missing")): No such file or directory")
        }
        do {
            try Data(count: 1).write(to: URL(fileURLWithPath: dir.file("missing/x")))
            Issue.record("wrote into a missing folder")
        } catch {
            #expect(SystemError.text(of: error) == "\(dir.file("missing/x")): No such file or directory")
        }
        #expect(SystemError.text(of: AudioError.emptyFile(path: "a.wav")) == "a.wav: empty file (0 bytes)", "our own errors as they are")
    }

    /// What reading a whole file gives, by what is at the path.
    enum ReadCase: String, CaseIterable, Sendable {
        case procEntry, empty, small, missing, folder
    }

    @Test("Whole files are read to their end: a /proc entry (size 0) whole, an empty file empty, nothing and a folder nil", arguments: ReadCase.allCases)
    func readsWholeFiles(_ which: ReadCase) throws {
        let dir = TemporaryDirectory("read")
        let path: String
        switch which {
        case .procEntry: path = "/proc/\(getpid())/stat"
        case .empty: path = dir.file("lock"); try Data().write(to: URL(fileURLWithPath: path))
        case .small: path = dir.file("look"); try Data("1795989600\n".utf8).write(to: URL(fileURLWithPath: path))
        case .missing: path = dir.file("nothing")
        case .folder: path = dir.path
        }
        let read = FileSystem.contents(path)
        switch which {
        case .procEntry:
            // The kernel says its size is 0; the entry is still read whole: "PID (comm) state …".
            #expect((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) == 0)
            let text = try #require(FileSystem.text(path))
            #expect(text.hasPrefix("\(getpid()) (") && text.hasSuffix("\n"), "\(text)")
        case .empty: #expect(read == Data())
        case .small: #expect(FileSystem.text(path) == "1795989600\n")
        case .missing, .folder: #expect(read == nil && FileSystem.text(path) == nil)
        }
    }
}
