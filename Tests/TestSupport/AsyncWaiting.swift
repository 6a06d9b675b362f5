import Foundation

/// Waits that never hold a thread: a test suspends instead, so the run's few threads keep
/// running other tests while a process works or a file appears.

/// Suspends the test for `seconds`.
public func pause(_ seconds: Double) async {
    try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
}

/// Checks `condition` every `interval` seconds until it holds or `seconds` have passed;
/// whether it held.
@discardableResult
public func eventually(
    within seconds: Double, every interval: Double = 0.05,
    _ condition: () throws -> Bool
) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
        if try condition() { return true }
        if Date() >= deadline { return false }
        await pause(interval)
    }
}

extension Process {
    /// Its exit status, once it has ended; polls rather than blocks, so no thread is held.
    @discardableResult
    public func ended() async -> Int32 {
        while isRunning { await pause(0.02) }
        return terminationStatus
    }
}

extension Process {
    /// Runs `body` while this (started) process runs, then ends the process with SIGKILL and
    /// suspends until it has ended — when `body` throws too — so nothing it writes outlives the
    /// test's folders, without holding a thread while it waits.
    public func killed<T>(after body: () async throws -> T) async throws -> T {
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        if isRunning { kill(processIdentifier, SIGKILL) }
        await ended()
        return try result.get()
    }
}

extension Sequence {
    /// `map` for a transform that waits (makes a fixture with a process), one element at a time.
    public func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}

/// `umount -l`: detaches a test's mount at once, without a process (a `defer` or `deinit`
/// cannot wait for one).
public func unmountLazily(_ path: String) {
    _ = umount2(path, Int32(MNT_DETACH))
}

extension FileHandle {
    /// What arrives on this pipe until `done` says the text is complete, the writer closes it, or
    /// `seconds` pass; polls a non-blocking descriptor, so no thread waits on the read.
    public func text(within seconds: Double, until done: (String) -> Bool) async -> String {
        let descriptor = fileDescriptor
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var text = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, !done(String(decoding: text, as: UTF8.self)) {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count > 0 { text.append(contentsOf: buffer[0..<count]); continue }
            if count == 0 { break }  // the writer closed it
            await pause(0.02)
        }
        return String(decoding: text, as: UTF8.self)
    }
}
