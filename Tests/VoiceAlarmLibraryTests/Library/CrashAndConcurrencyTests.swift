import Foundation
import TestSupport
import Testing
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmStore

/// Runs the binary against a data dir.
private func voicealarm(_ dataDir: String, _ arguments: [String]) async throws -> ProcessResult {
    try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", dataDir, "--quiet"] + arguments)
}

/// Starts the binary and SIGKILLs it after `delay` seconds (or lets it finish first).
private func killed(_ dataDir: String, _ arguments: [String], after delay: Double) async throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ProjectPaths.binary)
    process.arguments = ["--data-dir", dataDir, "--quiet"] + arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    await pause(delay)
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    await process.ended()
}

/// The store is consistent: SQLite is sound, every sound and clip it refers to exists and
/// decodes in full, and no file under a final name is half-written.
private func expectConsistent(_ dataDir: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let store = try LibraryStore(dataDirectory: dataDir)
    #expect(try store.integrityCheck() == "ok", sourceLocation: sourceLocation)
    for clip in try store.clips() {
        let facts = try SoundInspector.inspect("\(store.clipsDirectory)/\(clip.fileName)").facts
        #expect(Int((facts.duration * Double(facts.sampleRate)).rounded()) == clip.frames, "clip \(clip.idString)", sourceLocation: sourceLocation)
    }
    let sounds = "\(dataDir)/Sounds"
    for stored in try store.alarms() {
        guard let file = stored.soundFile else { continue }
        let inspection = try SoundInspector.inspect("\(sounds)/\(file)")
        #expect(inspection.problems.isEmpty, "\(file): \(inspection.problems)", sourceLocation: sourceLocation)
    }
    for folder in [store.clipsDirectory, sounds] {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where !name.hasPrefix(".") {
            #expect(throws: Never.self, "\(folder)/\(name) is half-written", sourceLocation: sourceLocation) {
                _ = try SoundInspector.inspect("\(folder)/\(name)")
            }
        }
    }
}

@Suite("Crashes and concurrent processes leave the library consistent")
struct CrashAndConcurrencyTests {
    // make test kills at one point in each; make test-full at every point.
    @Test("SIGKILL during an import", .timeLimit(.minutes(3)), arguments: TestScope.cases([0.05, 0.3, 0.8, 1.5], quick: [0.3]))
    func killDuringImport(_ delay: Double) async throws {
        let dir = TemporaryDirectory("kill-import")
        let data = dir.file("data")
        let long = dir.file("long.wav")
        try await AudioFixtures.tone(long, seconds: 180, rate: 48_000, channels: 2)
        _ = try await voicealarm(data, ["clip", "list"])
        try await killed(data, ["clip", "import", long], after: delay)
        try expectConsistent(data)
        // The library still works afterwards.
        await #expect(try voicealarm(data, ["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav"]).status == 0)
        try expectConsistent(data)
    }

    @Test("SIGKILL during a rebuild", .timeLimit(.minutes(3)), arguments: TestScope.cases([0.1, 0.5, 1.0, 2.0], quick: [0.5]))
    func killDuringRebuild(_ delay: Double) async throws {
        let dir = TemporaryDirectory("kill-rebuild")
        let data = dir.file("data")
        let clip = try await voicealarm(data, ["clip", "import", "\(ProjectPaths.sampleAudio)/manifesto.flac"]).stdout.trimmingCharacters(in: .newlines)
        #expect(try await voicealarm(data, ["manifesto", "set", clip]).status == 0)
        for hour in ["06", "07", "08"] {
            #expect(try await voicealarm(data, ["alarm", "add", "manifesto", "--at", "\(hour):00", "--days", "mon"]).status == 0)
        }
        try await killed(data, ["clip", "replace", clip, "\(ProjectPaths.sampleAudio)/strong.flac"], after: delay)
        try expectConsistent(data)
    }

    @Test("Processes adding alarms at the same time lose none; the same minute is granted once", .timeLimit(.minutes(3)))
    func concurrentAdds() async throws {
        let dir = TemporaryDirectory("concurrent")
        let data = dir.file("data")
        let clip = try await voicealarm(data, ["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav"]).stdout.trimmingCharacters(in: .newlines)
        #expect(try await voicealarm(data, ["playlist", "create", "a", clip]).status == 0)
        #expect(try await voicealarm(data, ["playlist", "create", "b", clip]).status == 0)

        // Eight processes at once: distinct minutes, two targets.
        let requests = (0..<8).map { ["alarm", "add", $0 % 2 == 0 ? "a" : "b", "--at", "05:0\($0)", "--days", "mon"] }
        let results = try await runTogether(data, requests)
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
        let listed = try await JSONSerialization.jsonObject(with: voicealarm(data, ["alarm", "list", "--json"]).stdoutData) as? [[String: Any]]
        #expect(listed?.count == 8)

        // Four processes race for the same minute on targets with room: exactly one wins, the rest are told why.
        #expect(try await voicealarm(data, ["playlist", "create", "c", clip]).status == 0)
        let race = try await runTogether(data, (0..<4).map { ["alarm", "add", $0 % 2 == 0 ? "c" : "manifesto", "--at", "09:30", "--days", "tue"] })
        #expect(race.filter { $0.status == 0 }.count == 1)
        #expect(race.filter { $0.status == 1 && $0.stderr.contains("overlaps alarm") }.count == 3)
        try expectConsistent(data)
    }

    private func runTogether(_ data: String, _ requests: [[String]]) async throws -> [ProcessResult] {
        try await withThrowingTaskGroup(of: (Int, ProcessResult).self) { group in
            for (i, request) in requests.enumerated() {
                group.addTask { (i, try await ProcessRunner.run(ProjectPaths.binary, ["--data-dir", data] + request)) }
            }
            var results = [ProcessResult?](repeating: nil, count: requests.count)
            for try await (i, result) in group { results[i] = result }
            return results.map { $0! }
        }
    }
}
