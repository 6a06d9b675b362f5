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

        // The folder is watched (inotify, read by a dispatch source on a queue of its own) from
        // before the render starts; the render is signalled the moment its temporary file appears,
        // mid-write. A test task polling on a busy run's shared threads could look only after the
        // render (under a second) had finished; no thread sleeps or polls here.
        let sawTemporary = SignalledFlag()
        let watch = try FolderWatch(dir.path) { names in names.contains { $0.hasSuffix(".partial") } }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProjectPaths.binary)
        process.arguments = ["render", "-o", out, input]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        watch.onMatch {
            kill(process.processIdentifier, signalNumber)
            sawTemporary.set()
        }
        try process.run()
        await process.ended()
        watch.cancel()
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

/// Tells once when a file whose name `matches` appears in a folder: inotify's creation and
/// move-in events, read by a dispatch source on a queue of its own.
private final class FolderWatch: @unchecked Sendable {
    // Unchecked: `action` and `done` are only touched on `queue`.
    private let queue = DispatchQueue(label: "folder-watch")
    private let descriptor: Int32
    private let source: any DispatchSourceRead
    private var action: (() -> Void)?
    private var done = false

    init(_ folder: String, matches: @escaping @Sendable ([String]) -> Bool) throws {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0, inotify_add_watch(descriptor, folder, UInt32(IN_CREATE | IN_MOVED_TO)) >= 0 else {
            throw TestSupportError("inotify on \(folder): errno \(errno)")
        }
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        let descriptor = descriptor
        // Strong: the cycle ends when `cancel` releases the handlers.
        source.setEventHandler { [self] in
            var events = [UInt8](repeating: 0, count: 4096)
            while read(descriptor, &events, events.count) > 0 {}  // drained; the folder says what is there
            guard !done, matches((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []) else { return }
            done = true
            action?()
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
    }

    /// Runs `action` (once, on the watch's queue) when a matching file appears.
    func onMatch(_ action: @escaping () -> Void) { queue.sync { self.action = action } }

    func cancel() { source.cancel() }
}
