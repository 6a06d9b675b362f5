import Foundation
import TestSupport
import Testing
import VoiceAlarmFiles

@Suite("FileDescriptor: an owned descriptor that writes every byte, refuses links when asked and closes itself")
struct FileDescriptorTests {
    @Test("Every byte is written, the file cut and judged through the descriptor, and it is closed when the value goes")
    func writesAndCloses() throws {
        let dir = TemporaryDirectory("descriptor")
        let path = dir.file("data")
        do {
            let file = try FileDescriptor(opening: path, .readWrite, options: [.create], permissions: 0o640)
            #expect(hasOpenDescriptor(on: path))
            let big = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0) })
            try file.write(big)
            let status = try file.status()
            #expect(status.kind == .regular && status.owner == FileSystem.currentUser && status.size == big.count)
            #expect(status.permissions == 0o640 & ~currentUmask())
            try file.truncate(to: 10)
            try file.write("é\n")  // written at the offset the descriptor had, past the cut: a hole before it
            #expect(try file.status().size == 300_003)
            try file.truncate()
            #expect(try file.status().size == 0)
        }
        #expect(!hasOpenDescriptor(on: path), "closed in deinit")
    }

    @Test(
        "With noFollow, a symbolic link in the file's place is refused (ELOOP) and its target never touched",
        arguments: [FileDescriptor.Access.readOnly, .writeOnly, .readWrite])
    func refusesLinks(access: FileDescriptor.Access) throws {
        let dir = TemporaryDirectory("descriptor")
        try plantLink(dir.file("link"), to: dir.file("target"))
        #expect(throws: SystemError(operation: "open", path: dir.file("link"), code: ELOOP)) {
            _ = try FileDescriptor(opening: dir.file("link"), access, options: [.create, .truncate, .noFollow])
        }
        #expect(try String(contentsOfFile: dir.file("target"), encoding: .utf8) == "theirs\n")
    }

    @Test("exclusive refuses anything at the path, a link to nowhere included", arguments: ["file", "dangling link"])
    func exclusive(what: String) throws {
        let dir = TemporaryDirectory("descriptor")
        let path = dir.file("db")
        if what == "file" {
            try Data().write(to: URL(fileURLWithPath: path))
        } else {
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: dir.file("nowhere"))
        }
        #expect(throws: SystemError(operation: "open", path: path, code: EEXIST)) {
            try FileSystem.createEmptyFile(at: path, permissions: 0o600)
        }
        #expect(FileSystem.kind(of: dir.file("nowhere")) == .missing, "nothing made through the link")
    }

    @Test("createEmptyFile makes an empty private file")
    func createEmpty() throws {
        let dir = TemporaryDirectory("descriptor")
        try FileSystem.createEmptyFile(at: dir.file("new"), permissions: 0o600)
        let status = try FileSystem.status(of: dir.file("new"))
        #expect(status.kind == .regular && status.permissions == 0o600 && status.size == 0)
    }

    @Test("In a read-only folder nothing is created nor opened for writing, root included (EROFS)", .timeLimit(.minutes(1)))
    func readOnlyFolder() async throws {
        let folder = try await ReadOnlyFolder("descriptor-ro") { try Data("kept".utf8).write(to: URL(fileURLWithPath: $0.file("present"))) }
        #expect(throws: SystemError(operation: "open", path: folder.file("new"), code: EROFS)) {
            _ = try FileDescriptor(opening: folder.file("new"), .writeOnly, options: [.create])
        }
        #expect(throws: SystemError(operation: "open", path: folder.file("present"), code: EROFS)) {
            _ = try FileDescriptor(opening: folder.file("present"), .readWrite)
        }
        #expect(try FileDescriptor(opening: folder.file("present"), .readOnly).status().size == 4, "reading still works")
    }
}

@Suite("FileSystem.remove(ifPresent:): nothing there is success, every other failure is thrown with its errno")
struct FileRemovalTests {
    @Test("A file or a link goes (the link's target stays); a missing one is no error", arguments: ["file", "link", "missing"])
    func removes(what: String) throws {
        let dir = TemporaryDirectory("remove")
        let path = dir.file("x")
        switch what {
        case "file": try Data("x".utf8).write(to: URL(fileURLWithPath: path))
        case "link": try plantLink(path, to: dir.file("target"))
        default: break
        }
        try FileSystem.remove(ifPresent: path)
        #expect(FileSystem.kind(of: path) == .missing)
        if what == "link" { #expect(FileSystem.kind(of: dir.file("target")) == .regular) }
    }

    @Test("A folder is not a file to remove (EISDIR)")
    func folder() throws {
        let dir = TemporaryDirectory("remove")
        try FileManager.default.createDirectory(atPath: dir.file("sub"), withIntermediateDirectories: false)
        #expect(throws: SystemError(operation: "unlink", path: dir.file("sub"), code: EISDIR)) {
            try FileSystem.remove(ifPresent: dir.file("sub"))
        }
    }

    @Test("A file in a read-only folder stays, and says why (EROFS); a missing one there is still no error", .timeLimit(.minutes(1)))
    func readOnlyFolder() async throws {
        let folder = try await ReadOnlyFolder("remove-ro") { try Data("x".utf8).write(to: URL(fileURLWithPath: $0.file("ringtone.m4a"))) }
        #expect(throws: SystemError(operation: "unlink", path: folder.file("ringtone.m4a"), code: EROFS)) {
            try FileSystem.remove(ifPresent: folder.file("ringtone.m4a"))
        }
        #expect(FileSystem.kind(of: folder.file("ringtone.m4a")) == .regular)
        try FileSystem.remove(ifPresent: folder.file("never-there"))
    }
}

/// The process's umask, as `/proc/self/status` says (`umask` itself can only be read by changing it).
private func currentUmask() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
    return line.flatMap { Int($0.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8) } ?? 0o022
}
