import Foundation
import Testing
import VoiceAlarm
import VoiceAlarmCore

/// A manifest of `count` ringtones over twelve clip names (no files: assignment reads none).
private func manifest(_ count: Int) throws -> BatchManifest {
    let ringtones = (0..<count).map { n in
        #"{"id": "u\#(n)", "clips": ["c\#(n % 12).wav", "c\#((n / 12) % 12).wav"], "gap": \#(Double(n % 5) / 10)}"#
    }
    return try BatchManifest(data: Data(#"{"ringtones": [\#(ringtones.joined(separator: ","))]}"#.utf8), folder: "/m", base: RenderSettings())
}

@Suite("Which shard builds a ringtone")
struct BatchShardAssignmentTests {
    @Test("Every ringtone is in exactly one shard, for any count", arguments: [1, 2, 3, 4, 7, 16])
    func partition(_ count: Int) throws {
        let whole = try manifest(600)
        let items = whole.items
        let shards = (1...count).map { BatchBuilder.items(of: whole, in: ShardSpec(index: $0, count: count, source: .option)).map(\.id) }
        #expect(shards.flatMap { $0 }.sorted() == items.map(\.id).sorted())
        #expect(Set(shards.flatMap { $0 }).count == items.count)
        let mean = Double(items.count) / Double(count)
        #expect(shards.allSatisfy { abs(Double($0.count) - mean) < 4 * mean.squareRoot() }, "evenly spread: \(shards.map(\.count))")
    }

    @Test("The rule is SHA-256, not a per-process hash: the same shards in every process and version")
    func golden() throws {
        let whole = try manifest(12)
        let owners = whole.items.map { item in
            (1...4).first { BatchBuilder.items(of: whole, in: ShardSpec(index: $0, count: 4, source: .option)).contains { $0.id == item.id } }!
        }
        #expect(owners == GoldenShards.ofFirstTwelve, "\(owners) \(whole.items.map(\.shardKey))")
    }

    @Test("Ringtones declared alike share a shard even when their ids differ; a ringtone that cannot be built is placed by its id")
    func alike() throws {
        let manifest = try BatchManifest(
            data: Data(
                """
                {"ringtones": [{"id": "a", "clips": ["x.wav"]}, {"id": "b", "clips": ["x.wav"]}, {"id": "c", "clips": ["x.wav"]},
                               {"id": "d", "clips": ["x.wav"]}, {"id": "e", "clips": ["x.wav"]}, {"id": "f/g", "clips": ["x.wav"]}]}
                """.utf8), folder: "/m", base: RenderSettings())
        let shards = (1...8).map { BatchBuilder.items(of: manifest, in: ShardSpec(index: $0, count: 8, source: .option)).map(\.id) }
        #expect(shards.contains { Set(["a", "b", "c", "d", "e"]).isSubset(of: Set($0)) })
        #expect(shards.filter { $0.contains("f/g") }.count == 1)
    }
}

/// The shards (of 4) of `manifest(12)`'s ringtones, computed independently by Python's hashlib:
/// `int(sha256(shardKey).hexdigest()[:16], 16) % 4 + 1` over keys such as
/// `"shard-v1\nm4a|aac|44100|cap=1278900|gap=0|trim=true|norm=true|lufs=-16.0\nc0.wav\nc0.wav"`.
/// Any change to the rule or to the key shows here.
private enum GoldenShards {
    static let ofFirstTwelve = [2, 3, 4, 1, 3, 3, 4, 3, 4, 4, 3, 3]
}
