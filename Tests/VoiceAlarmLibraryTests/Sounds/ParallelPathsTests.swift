import Foundation
import TestSupport
import Testing
import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmCore

/// The paths that run on several threads at once, driven in this process so a ThreadSanitizer
/// build (`make sanitize`) watches every access: the batch's clip cache, a batch with several
/// jobs, and `build` with several workers.
@Suite("Parallel paths: the clip cache, batch jobs, build workers")
struct ParallelPathsTests {
    @Test(
        "Eight threads asking the cache for the same clips get the same answers, each clip decoded once",
        .timeLimit(.minutes(3)))
    func sharedCache() async throws {
        let dir = TemporaryDirectory("parallel-cache")
        let cache = try BatchClipCache(in: dir.path, sampleRate: RenderSettings.defaultSampleRate)
        defer { cache.remove() }
        let inputs = try await [("a.wav", 440.0), ("b.flac", 550), ("c.mp3", 660)].asyncMap { name, frequency in
            let path = dir.file(name)
            try await AudioFixtures.tone(path, seconds: 1.5, frequency: frequency, codec: name.hasSuffix("mp3") ? "libmp3lame" : nil)
            return (path, try ContentHash.sha256(file: path))
        }
        let answers = Answers()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for (path, hash) in inputs.shuffled() {
                let clip = Result { try cache.clip(path, hash: hash, trimSilence: worker % 2 == 0) }
                answers.add(path, worker % 2 == 0, (try? clip.get()).map { "\($0.extent)" } ?? "failed")
            }
        }
        #expect(answers.distinctPerKey.allSatisfy { $0 == 1 }, "every thread got the same extent")
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.directory)
        #expect(files.count == 6, "three clips, trimmed and whole, each decoded once: \(files)")
    }

    @Test("A batch with four jobs over shared inputs builds every ringtone, duplicates copied", .timeLimit(.minutes(3)))
    func batchJobs() async throws {
        let dir = TemporaryDirectory("parallel-batch")
        let clips = try await ["a.wav", "b.flac", "c.ogg", "d.wav"].enumerated().asyncMap { index, name in
            let path = dir.file(name)
            try await AudioFixtures.tone(
                path, seconds: 1 + Double(index) / 4, frequency: 300 + 100 * Double(index),
                codec: name.hasSuffix("ogg") ? "libvorbis" : nil)
            return path
        }
        // r6 and r7 are r0 and r1 again: built once, copied.
        let ringtones = (0..<8).map { index in
            let k = index % 6
            return #"{"id": "r\#(index)", "clips": ["\#(clips[k % 4])", "\#(clips[(k + 1) % 4])"], "gap": \#(Double(k % 3) / 10)}"#
        }
        let manifest = try BatchManifest(
            data: Data(#"{"format": "wav", "ringtones": [\#(ringtones.joined(separator: ","))]}"#.utf8),
            folder: dir.path, base: RenderSettings())
        let progress = Answers()
        let outcome = try BatchBuilder(
            manifest: manifest, outputDirectory: dir.file("out"), jobs: 4,
            progress: { progress.add("done", false, "\($0.done)") }
        ).run()
        #expect(outcome.built == (0..<8).map { "r\($0)" } && outcome.failed.isEmpty, "\(outcome.failed)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("out")).filter { $0.hasSuffix(".wav") }.count == 8)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("out/r6.wav"))) == (try Data(contentsOf: URL(fileURLWithPath: dir.file("out/r0.wav")))))
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: dir.file("out"))).contains { $0.hasPrefix(".voicealarm-cache-") })
    }

    @Test("build with three workers, each on its own connections, rebuilds every alarm", .timeLimit(.minutes(3)))
    func buildWorkers() async throws {
        let f = try LibraryFixture()
        let clips = try await [1.0, 1.5, 2.0].asyncMap { try await f.importTone($0, frequency: 200 * $0) }
        try f.service.playlists.create("morning", clips: clips.map(\.idString))
        _ = try f.service.playlists.setManifesto(clips[0].idString)
        for hour in [5, 6] {
            _ = try f.service.alarms.add(on: .playlist("morning"), at: AlarmTime(hour: hour, minute: 0), days: .everyDay)
            _ = try f.service.alarms.add(on: .manifesto, at: AlarmTime(hour: hour, minute: 30), days: .everyDay)
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: f.service.sounds.path) {
            try FileManager.default.removeItem(atPath: f.service.sounds.path(of: name))
        }
        let outcome = try ParallelRebuild(service: f.service, jobs: 3).run(targets: [])
        #expect(outcome.built == 4 && outcome.failed.isEmpty, "\(outcome)")
    }
}

/// Answers collected from several threads, under a lock.
private final class Answers: @unchecked Sendable {
    private let lock = NSLock()
    private var byKey: [String: Set<String>] = [:]

    func add(_ path: String, _ trimmed: Bool, _ answer: String) {
        lock.withLock { _ = byKey["\(path)-\(trimmed)", default: []].insert(answer) }
    }

    var distinctPerKey: [Int] { lock.withLock { byKey.values.map(\.count) } }
}
