import Foundation
import TestSupport
import Testing

/// `count` distinct ringtones over the 35-second manifesto: a batch that runs for seconds.
private func slowManifest(_ folder: BatchFolder, count: Int = 12) throws {
    let ringtones = (0..<count).map { #"{"id": "r\#($0)", "clips": ["clips/manifesto.flac", "clips/calm.wav"], "gap": \#(Double($0) / 20)}"# }
    try folder.write(#"{"ringtones": [\#(ringtones.joined(separator: ", "))]}"#)
}

/// A one-ringtone manifest beside `folder`'s, for a second batch into the same output folder.
private func quickManifest(_ folder: BatchFolder) throws -> String {
    let path = folder.dir.file("quick.json")
    try #"{"ringtones": [{"id": "quick", "clips": ["clips/calm.wav"]}]}"#.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// A batch running in the background.
private final class RunningBatch {
    let process = Process()
    let err = Pipe()

    init(_ manifest: String, out: String, jobs: Int = 1) throws {
        process.executableURL = URL(fileURLWithPath: ProjectPaths.binary)
        process.arguments = ["batch", "-q", manifest, "--out", out, "--jobs", String(jobs)]
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
    }

    /// Signals the batch and waits for it; returns its status and stderr.
    func stop(_ signalNumber: Int32) async -> (Int32, String) {
        kill(process.processIdentifier, signalNumber)
        await process.ended()
        return (process.terminationStatus, String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }
}

/// The names in `out` (and its index folder) that a batch leaves only while it runs: decode caches and hidden temporaries.
func leftovers(_ out: String) -> [String] {
    let index = ".voicealarm-batch.d"
    let names =
        ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? [])
        + ((try? FileManager.default.contentsOfDirectory(atPath: "\(out)/\(index)")) ?? []).map { "\(index)/\($0)" }
    return names.filter { $0.hasPrefix(".voicealarm-cache-") || $0.hasSuffix(".partial") }.sorted()
}

/// Waits (at most 30 s) until `out` holds a decode cache, and returns its name.
private func waitForCache(_ out: String, while batch: RunningBatch) async -> String? {
    for _ in 0..<3_000 where batch.process.isRunning {
        if let cache = leftovers(out).first(where: { $0.hasPrefix(".voicealarm-cache-") }) { return cache }
        await pause(0.01)
    }
    return nil
}

@Suite("A batch leaves nothing behind in --out")
struct BatchCleanupTests {
    @Test(
        "Ctrl-C or SIGTERM mid-run: the decode cache and half-written ringtones are removed", .timeLimit(.minutes(1)),
        arguments: [SIGINT, SIGTERM])
    func interrupted(_ signalNumber: Int32) async throws {
        let folder = try BatchFolder()
        try slowManifest(folder)
        let batch = try RunningBatch(folder.manifest, out: folder.out, jobs: 2)
        let cache = await waitForCache(folder.out, while: batch)
        #expect(cache != nil, "the batch ended before it could be interrupted")
        let (status, stderr) = await batch.stop(signalNumber)
        #expect(status == 128 + signalNumber)
        #expect(stderr.contains("error: interrupted"))
        #expect(leftovers(folder.out).isEmpty, "left: \(leftovers(folder.out))")
    }

    @Test("SIGKILL mid-run leaves a cache; the next batch into the folder removes it", .timeLimit(.minutes(1)))
    func killed() async throws {
        let folder = try BatchFolder()
        try slowManifest(folder)
        let batch = try RunningBatch(folder.manifest, out: folder.out, jobs: 2)
        let cache = await waitForCache(folder.out, while: batch)
        _ = await batch.stop(SIGKILL)
        let cacheName = try #require(cache)
        #expect(leftovers(folder.out).contains(cacheName), "a killed process cannot clean up")

        let next = try await voicealarm(["batch", "-q", try quickManifest(folder), "--out", folder.out])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(leftovers(folder.out).isEmpty, "left: \(leftovers(folder.out))")
    }

    // Three minutes: it waits for six slow ringtones to finish while another batch runs, which on
    // a machine whose cores a benchmark holds took 68 s.
    @Test("Two batches share --out: the running one's cache is not swept by the other", .timeLimit(.minutes(3)))
    func liveCacheKept() async throws {
        let folder = try BatchFolder()
        try slowManifest(folder, count: 6)
        let running = try RunningBatch(folder.manifest, out: folder.out, jobs: 1)
        let cacheName = try #require(await waitForCache(folder.out, while: running))
        let other = try await voicealarm(["batch", "-q", try quickManifest(folder), "--out", folder.out])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(running.process.isRunning, "the first batch must still run for this test to mean anything")
        #expect(leftovers(folder.out).contains(cacheName))
        await running.process.ended()
        #expect(running.process.terminationStatus == 0, "it finished with its cache intact")
        #expect(leftovers(folder.out).isEmpty)
    }

    @Test(
        "An I/O failure reaches the user as one line with the file and the reason, never a Foundation dump",
        .timeLimit(.minutes(1)))
    func ioFailureIsOneLine() async throws {
        let folder = try BatchFolder()
        // Room for the index, not for the 29 s of decoded samples the manifesto's cache needs.
        let disk = try await SmallDisk(bytes: 512 * 1024)
        try folder.write(#"{"ringtones": [{"id": "long", "clips": ["clips/manifesto.flac"]}]}"#)
        let result = try await voicealarm(["batch", "-q", folder.manifest, "--out", disk.path])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(result.stderr)")
        #expect(lines.first?.hasPrefix("error: long: \(disk.path)/.voicealarm-cache-") == true, "stderr: \(result.stderr)")
        #expect(result.stderr.hasSuffix(": cannot write (No space left on device)\n"), "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("Domain") && !result.stderr.contains("UserInfo"))
        #expect(leftovers(disk.path).isEmpty)
    }
}
