import Foundation
import TestSupport
import Testing

/// Changes that reach several alarms, through the binary: their ringtones are rebuilt together
/// (the rebuild pool), and every alarm ends on its own voice file, checked by ffprobe.
@Suite("Several ringtones rebuilt at once through the command line", .timeLimit(.minutes(3)))
struct ParallelRebuildCommandTests {
    private func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    @Test("settings format caf rebuilds four alarms on four playlists: each a caf of 16-bit PCM, listed and scheduled on its voice")
    func settingsChange() async throws {
        let lib = CLILibrary()
        let clips = try await ["kind.ogg", "ready.mp3", "calm.wav"].asyncMap {
            try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/\($0)", "-q"])
        }
        let alarms = try await [(0, 1), (1, 2), (2, 0), (1, 0)].enumerated().asyncMap { index, pair in
            _ = try await lib.ok(["playlist", "create", "p\(index)", clips[pair.0], clips[pair.1], "-q"])
            return try await lib.ok(["alarm", "add", "p\(index)", "--at", "0\(5 + index):00", "--days", "mon", "-q"])
        }

        let change = try await lib.run(["settings", "format", "caf"])
        #expect(change.status == 0, "\(change.stderr)")
        let rebuilt = change.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("Rebuilt the ringtone of alarm ") }
        #expect(rebuilt == alarms.map { "Rebuilt the ringtone of alarm \($0) and re-scheduled it." }, "in the alarms' order: \(change.stderr)")

        let sounds = "\(lib.dataDir)/Sounds"
        #expect(try FileManager.default.contentsOfDirectory(atPath: sounds).sorted() == alarms.map { "\($0).caf" }.sorted(), "the m4a files are gone")
        for id in alarms {
            let probe = try await IndependentMeasure.probe("\(sounds)/\(id).caf")
            #expect(probe.formatName == "caf" && probe.codecName == "pcm_s16le", "\(id): \(probe)")
            #expect(probe.duration > 6 && probe.duration < 9.5, "both clips (about 4 s each, one alone is under 4.6 s): \(probe.duration)")
        }
        let listed = try await #require(try json(lib.ok(["alarm", "list", "--json"])) as? [[String: Any]])
        #expect(
            Dictionary(uniqueKeysWithValues: listed.map { ($0["id"] as? String ?? "", $0["sound"] as? String ?? "") })
                == Dictionary(uniqueKeysWithValues: alarms.map { ($0, "\($0).caf") }))
        #expect(listed.allSatisfy { $0["soundReason"] is NSNull })
        let scheduled = try await #require(try json(lib.ok(["scheduler", "list", "--json"])) as? [[String: Any]])
        #expect(Set(scheduled.compactMap { $0["sound"] as? String }) == Set(alarms.map { "\($0).caf" }), "\(scheduled)")
    }

    @Test("A settings change on a full disk keeps every alarm's old voice file, owes the rebuilds, and leaves nothing half-written")
    func fullDisk() async throws {
        let lib = CLILibrary()
        let disk = try await SmallDisk(bytes: 2 * 1024 * 1024)
        let clips = try await ["kind.ogg", "ready.mp3", "calm.wav"].asyncMap {
            try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/\($0)", "-q"])
        }
        _ = try await lib.ok(["--sounds-dir", disk.path, "settings", "-q"])
        let alarms = try await [(0, 1), (1, 2), (2, 0)].enumerated().asyncMap { index, pair in
            _ = try await lib.ok(["playlist", "create", "p\(index)", clips[pair.0], clips[pair.1], "-q"])
            return try await lib.ok(["alarm", "add", "p\(index)", "--at", "0\(5 + index):00", "--days", "mon", "-q"])
        }
        let sizes = try alarms.map { try FileManager.default.attributesOfItem(atPath: disk.file("\($0).m4a"))[.size] as? Int }
        #expect(sizes.allSatisfy { ($0 ?? 0) > 10_000 }, "each alarm built on the small disk: \(sizes)")
        // Fill what is left of the disk.
        _ = try? await ProcessRunner.run("dd", ["if=/dev/zero", "of=\(disk.file("filler"))", "bs=65536"])

        let change = try await lib.run(["settings", "format", "wav"])
        #expect(change.stderr.contains("No space left on device"), "\(change.stderr)")
        #expect(!change.stderr.contains("left out of"), "no clip is blamed for the disk: \(change.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: disk.path).sorted()
        #expect(left == (alarms.map { "\($0).m4a" } + ["filler"]).sorted(), "the old files stay, nothing half-written: \(left)")
        #expect(try alarms.map { try FileManager.default.attributesOfItem(atPath: disk.file("\($0).m4a"))[.size] as? Int } == sizes)
        let listed = try await #require(try json(lib.ok(["alarm", "list", "--json"])) as? [[String: Any]])
        #expect(
            Dictionary(uniqueKeysWithValues: listed.map { ($0["id"] as? String ?? "", $0["sound"] as? String ?? "") })
                == Dictionary(uniqueKeysWithValues: alarms.map { ($0, "\($0).m4a") }), "every alarm still rings its voice: \(listed)")
    }
}
