import Foundation
import TestSupport
import Testing

/// A batch folder: clips copied from SampleAudio, a manifest, an output folder.
final class BatchFolder {
    let dir = TemporaryDirectory("batch")
    var out: String { dir.file("out") }
    var manifest: String { dir.file("manifest.json") }

    init() throws {
        try FileManager.default.createDirectory(atPath: dir.file("clips"), withIntermediateDirectories: true)
        for name in ["calm.wav", "ready.mp3", "grateful.m4a", "strong.flac", "kind.ogg", "manifesto.flac"] {
            try FileManager.default.copyItem(atPath: "\(ProjectPaths.sampleAudio)/\(name)", toPath: dir.file("clips/\(name)"))
        }
    }

    func write(_ json: String) throws { try json.write(toFile: manifest, atomically: true, encoding: .utf8) }

    func run(_ extra: [String] = []) async throws -> (ProcessResult, [String: Any]) {
        let result = try await voicealarm(["batch", manifest, "--out", out, "--json"] + extra)
        let outcome = (try? JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]) ?? [:]
        return (result, outcome)
    }
}

private let standard = #"""
    {"ringtones": [
      {"id": "morning", "clips": ["clips/calm.wav", "clips/ready.mp3", "clips/grateful.m4a"]},
      {"id": "evening", "clips": ["clips/strong.flac", "clips/kind.ogg"], "format": "caf"},
      {"id": "manifesto", "clips": ["clips/manifesto.flac", "clips/calm.wav"], "gap": 0}
    ]}
    """#

@Suite("voicealarm batch")
struct BatchCommandTests {
    @Test("Outputs equal what voicealarm render makes for the same clips and settings")
    func equalsRender() async throws {
        let folder = try BatchFolder()
        try folder.write(standard)
        let (result, outcome) = try await folder.run()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(outcome["built"] as? [String] == ["morning", "evening", "manifesto"] && outcome["skipped"] as? [String] == [])
        #expect((outcome["failed"] as? [Any])?.isEmpty == true)
        for (id, ext, clips, extra) in [
            ("morning", "m4a", ["calm.wav", "ready.mp3", "grateful.m4a"], [String]()),
            ("evening", "caf", ["strong.flac", "kind.ogg"], []),
            ("manifesto", "m4a", ["manifesto.flac", "calm.wav"], ["--gap", "0"]),
        ] {
            let rendered = folder.dir.file("\(id)-render.\(ext)")
            #expect(try await voicealarm(["render", "-q", "-o", rendered] + extra + clips.map { folder.dir.file("clips/\($0)") }).status == 0)
            let batch = try await IndependentMeasure.decodedSamples("\(folder.out)/\(id).\(ext)")
            #expect(await batch == (try IndependentMeasure.decodedSamples(rendered)), "\(id) decodes to the same samples")
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(folder.out)/\(id).\(ext)")) == (try Data(contentsOf: URL(fileURLWithPath: rendered))))
        }
    }

    @Test("Incremental: nothing changed skips all; a new timestamp re-hashes but skips; a changed clip rebuilds only its ringtones")
    func incremental() async throws {
        let folder = try BatchFolder()
        try folder.write(standard)
        _ = try await folder.run()
        let morning = try Data(contentsOf: URL(fileURLWithPath: "\(folder.out)/morning.m4a"))
        let again = try await folder.run()
        #expect(again.1["built"] as? [String] == [] && again.1["skipped"] as? [String] == ["morning", "evening", "manifesto"])
        // A timestamp never decides: touched but equal bytes are re-hashed and still skipped.
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: folder.dir.file("clips/kind.ogg"))
        await #expect((try folder.run().1["skipped"] as? [String])?.count == 3)
        // Same size and timestamp but different bytes would fool a stat check: the inode changes with a rename, so it is re-hashed.
        let calm = folder.dir.file("clips/calm.wav")
        let swapped = folder.dir.file("clips/calm-new.wav")
        try await AudioFixtures.tone(swapped, seconds: 3)
        try FileManager.default.removeItem(atPath: calm)
        try FileManager.default.moveItem(atPath: swapped, toPath: calm)
        let changed = try await folder.run()
        #expect(
            changed.1["built"] as? [String] == ["morning", "manifesto"] && changed.1["skipped"] as? [String] == ["evening"],
            "morning and manifesto use calm.wav")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(folder.out)/morning.m4a")) != morning)
        // A format change rebuilds and removes the old file.
        try folder.write(standard.replacingOccurrences(of: #""id": "morning", "#, with: #""id": "morning", "format": "wav", "#))
        await #expect(try folder.run().1["built"] as? [String] == ["morning"])
        #expect(!FileManager.default.fileExists(atPath: "\(folder.out)/morning.m4a"))
        #expect(FileManager.default.fileExists(atPath: "\(folder.out)/morning.wav"))
        let index =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(folder.out)/.voicealarm-batch.d/shard-1-of-1.json")))
            as? [String: Any]
        #expect((index?["ringtones"] as? [String: Any])?.count == 3)
    }

    @Test("A folder built by an earlier version (one index file, no stamps) stays incremental, and its index moves into the index folder")
    func legacyIndex() async throws {
        let folder = try BatchFolder()
        try folder.write(standard)
        _ = try await folder.run()
        let current = "\(folder.out)/.voicealarm-batch.d/shard-1-of-1.json"
        var index = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: current))) as? [String: Any])
        let ringtones = try #require(index["ringtones"] as? [String: [String: Any]])
        index["ringtones"] = ringtones.mapValues { $0.filter { ["key", "file", "bytes"].contains($0.key) } }
        try JSONSerialization.data(withJSONObject: index).write(to: URL(fileURLWithPath: "\(folder.out)/.voicealarm-batch.json"))
        try FileManager.default.removeItem(atPath: "\(folder.out)/.voicealarm-batch.d")
        let (result, outcome) = try await folder.run()
        #expect(result.status == 0)
        #expect(outcome["skipped"] as? [String] == ["morning", "evening", "manifesto"])
        #expect(!FileManager.default.fileExists(atPath: "\(folder.out)/.voicealarm-batch.json"))
        let moved = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: current))) as? [String: Any]
        #expect(((moved?["ringtones"] as? [String: [String: Any]])?["morning"])?["stamp"] != nil, "the stamp is recorded from now on")
    }

    @Test("A failing ringtone never stops the others; its old output goes; exit 1")
    func failureIsolation() async throws {
        let folder = try BatchFolder()
        try folder.write(standard)
        _ = try await folder.run()
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: folder.dir.file("clips/kind.ogg")))
        let (result, outcome) = try await folder.run()
        #expect(result.status == 1)
        let failed = outcome["failed"] as? [[String: String]]
        #expect(failed?.count == 1 && failed?[0]["id"] == "evening")
        #expect(failed?[0]["error"]?.contains("kind.ogg: not an audio file") == true)
        #expect(outcome["skipped"] as? [String] == ["morning", "manifesto"])
        #expect(!FileManager.default.fileExists(atPath: "\(folder.out)/evening.caf"), "an old ringtone is the wrong sound")
        #expect(result.stderr.contains("error: evening: "))
    }

    @Test("A clip after the first one left out is never read; identical ringtones are built once")
    func neverDecodedAndDuplicates() async throws {
        let folder = try BatchFolder()
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: folder.dir.file("clips/broken.wav")))
        try folder.write(
            #"""
            {"ringtones": [
              {"id": "a", "clips": ["clips/manifesto.flac", "clips/calm.wav", "clips/broken.wav"], "gap": 0},
              {"id": "b", "clips": ["clips/calm.wav", "clips/kind.ogg"]},
              {"id": "c", "clips": ["clips/calm.wav", "clips/kind.ogg"]}
            ]}
            """#)
        let (result, outcome) = try await folder.run()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(outcome["built"] as? [String] == ["a", "b", "c"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(folder.out)/b.m4a")) == (try Data(contentsOf: URL(fileURLWithPath: "\(folder.out)/c.m4a"))))
    }

    @Test(
        "Bad manifests and outputs: one line, exit 1, nothing written outside --out",
        arguments: [
            ("not json at all", "", "not JSON"),
            (#"{"format": "m4a"}"#, "", "no \"ringtones\" list"),
            (standard, "/proc/voicealarm-out", "/proc/voicealarm-out: cannot be created"),
        ])
    func badManifest(_ json: String, _ outOverride: String, _ message: String) async throws {
        let folder = try BatchFolder()
        try folder.write(json)
        let before = folder.dir.contents()
        let result = try await voicealarm(["batch", folder.manifest, "--out", outOverride.isEmpty ? folder.out : outOverride])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: ") && result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        let after = folder.dir.contents().filter { $0 != "out" }
        #expect(after == before)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder.out)) ?? []).filter { !$0.hasPrefix(".voicealarm-batch") }.isEmpty)
    }

    @Test("Usage: a missing --out, a bad --jobs")
    func usage() async throws {
        #expect(try await voicealarm(["batch", "m.json"]).stderr.contains("missing --out DIR"))
        #expect(try await voicealarm(["batch", "m.json", "--out", "o", "--jobs", "0"]).status == 64)
    }

    @Test("build rebuilds the library's alarms, skipping unchanged ones")
    func build() async throws {
        let dir = TemporaryDirectory("build")
        let data = dir.file("data")
        let clip = try await voicealarm(["--data-dir", data, "-q", "clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav"]).stdout.trimmingCharacters(
            in: .newlines)
        _ = try await voicealarm(["--data-dir", data, "-q", "manifesto", "set", clip])
        _ = try await voicealarm(["--data-dir", data, "-q", "alarm", "add", "manifesto", "--at", "07:00", "--days", "mon"])
        _ = try await voicealarm(["--data-dir", data, "-q", "alarm", "add", "manifesto", "--at", "08:00", "--days", "mon"])
        let first = try await voicealarm(["--data-dir", data, "build", "--all", "--json"])
        let outcome = try JSONSerialization.jsonObject(with: first.stdoutData) as? [String: Any]
        #expect(outcome?["skipped"] as? Int == 2 && outcome?["built"] as? Int == 0)
        try FileManager.default.removeItem(atPath: "\(data)/Sounds")
        try FileManager.default.createDirectory(atPath: "\(data)/Sounds", withIntermediateDirectories: true)
        let second =
            try await JSONSerialization.jsonObject(with: voicealarm(["--data-dir", data, "build", "manifesto", "--json", "--jobs", "2"]).stdoutData)
            as? [String: Any]
        #expect(second?["built"] as? Int == 2)
    }
}
