import Foundation
import Testing
import VoiceAlarmCore

@Suite("Shards of a batch")
struct ShardSpecTests {
    @Test("--shard K/N, 1-based", arguments: [("1/4", 1, 4), ("4/4", 4, 4), ("1/1", 1, 1), ("7/100", 7, 100)])
    func parses(_ text: String, _ index: Int, _ count: Int) throws {
        let shard = try ShardSpec.parse(text)
        #expect(shard.index == index && shard.count == count && shard.source == .option)
        #expect(shard.text == text && shard.fileStem == "shard-\(index)-of-\(count)")
    }

    @Test(
        "Bad --shard values say what is wrong",
        arguments: [
            ("0/4", "must be 1 to 4"), ("5/4", "must be 1 to 4"), ("1/0", "count must be 1 to"), ("a/b", "is not K/N"),
            ("", "is not K/N"), ("2", "is not K/N"), ("1/2/3", "is not K/N"), ("-1/4", "must be 1 to 4"), ("1/100001", "count must be"),
            (" 1/4", "is not K/N"), ("1/4x", "is not K/N"),
        ])
    func badOption(_ text: String, _ message: String) {
        #expect(throws: ShardError.self) { try ShardSpec.parse(text) }
        do { _ = try ShardSpec.parse(text) } catch { #expect(error.reason.contains(message), "\(error.reason)") }
    }

    @Test(
        "The index comes from --shard, else the job engine's environment",
        arguments: [
            // option, --shards, environment, index, count, source
            (nil, nil, [:], 1, 1, ShardSpec.Source.none),
            ("2/4", nil, [:], 2, 4, .option),
            ("2/4", "4", [:], 2, 4, .option),
            (nil, "4", ["JOB_COMPLETION_INDEX": "0"], 1, 4, .kubernetes),
            (nil, "4", ["JOB_COMPLETION_INDEX": "3"], 4, 4, .kubernetes),
            (nil, nil, ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"], 3, 4, .slurm),
            (nil, nil, ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "4"], 1, 4, .slurm),
            (nil, nil, ["SLURM_ARRAY_TASK_ID": "12", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_STEP": "4", "SLURM_ARRAY_TASK_COUNT": "4"], 4, 4, .slurm),
            (nil, "4", ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "1"], 2, 4, .slurm),
            (nil, "3", ["AWS_BATCH_JOB_ARRAY_INDEX": "2"], 3, 3, .awsBatch),
            ("3/4", "4", ["JOB_COMPLETION_INDEX": "2"], 3, 4, .option),  // agreeing sources are fine
            (nil, nil, ["JOB_COMPLETION_INDEX": ""], 1, 1, .none),  // empty is unset, as in a shell
            (nil, "1", [:], 1, 1, .none),
        ] as [(String?, String?, [String: String], Int, Int, ShardSpec.Source)])
    func resolves(_ option: String?, _ count: String?, _ environment: [String: String], _ index: Int, _ total: Int, _ source: ShardSpec.Source) throws {
        let shard = try ShardSpec.resolve(option: option, count: count, environment: environment)
        #expect(shard == ShardSpec(index: index, count: total, source: source))
    }

    @Test(
        "Environment and option problems are one clear line",
        arguments: [
            (nil, "4", ["JOB_COMPLETION_INDEX": "4"], "JOB_COMPLETION_INDEX=4 is out of range for 4 shards"),
            (nil, "4", ["JOB_COMPLETION_INDEX": "x"], "JOB_COMPLETION_INDEX='x' is not a shard index"),
            (nil, "4", ["JOB_COMPLETION_INDEX": "-1"], "is not a shard index"),
            (nil, nil, ["JOB_COMPLETION_INDEX": "1"], "give --shards N"),
            (nil, nil, ["AWS_BATCH_JOB_ARRAY_INDEX": "1"], "give --shards N"),
            (nil, nil, ["SLURM_ARRAY_TASK_ID": "1"], "give --shards N"),
            (nil, nil, ["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"], "out of range for 4 shards"),
            (nil, nil, ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"], "is not in the array"),
            (nil, nil, ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_STEP": "2", "SLURM_ARRAY_TASK_COUNT": "4"], "is not in the array"),
            (nil, "3", ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4"], "--shards 3 contradicts SLURM_ARRAY_TASK_COUNT=4"),
            ("1/4", nil, ["JOB_COMPLETION_INDEX": "2"], "--shard 1/4 contradicts JOB_COMPLETION_INDEX (shard 3/4)"),
            ("1/4", "4", ["JOB_COMPLETION_INDEX": "2"], "contradicts JOB_COMPLETION_INDEX (shard 3/4)"),
            ("1/4", "5", [:], "--shards 5 contradicts --shard 1/4"),
            (nil, "4", [:], "--shards 4 needs a shard index"),
            (nil, "0", [:], "--shards: '0' is not a shard count"),
            (nil, "four", [:], "--shards: 'four' is not a shard count"),
            ("0/4", nil, [:], "must be 1 to 4"),
        ] as [(String?, String?, [String: String], String)])
    func refuses(_ option: String?, _ count: String?, _ environment: [String: String], _ message: String) {
        do {
            let shard = try ShardSpec.resolve(option: option, count: count, environment: environment)
            Issue.record("resolved to \(shard)")
        } catch {
            #expect(error.reason.contains(message), "\(error.reason)")
            #expect(!error.reason.contains("\n"))
        }
    }

    @Test("A digest's shard is its first 64 bits modulo the count: the same everywhere, every time")
    func digestShard() {
        // SHA-256("abc"): 0xba7816bf8f01cfea = 13436514500253700074.
        let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        #expect(ShardSpec.shard(ofDigest: abc, count: 1) == 1)
        #expect(ShardSpec.shard(ofDigest: abc, count: 4) == Int((13436514500253700074 as UInt64) % 4) + 1)
        #expect(ShardSpec.shard(ofDigest: abc, count: 7) == Int((13436514500253700074 as UInt64) % 7) + 1)
        let shards = (1...4).map { ShardSpec(index: $0, count: 4, source: .option) }
        #expect(shards.filter { $0.owns(digest: abc) }.count == 1, "exactly one shard owns a ringtone")
    }

    @Test("Digests spread evenly over the shards")
    func spread() {
        var generator = SystemRandomNumberGenerator()
        var counts = [0, 0, 0, 0]
        for _ in 0..<4000 {
            let digest = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
            counts[ShardSpec.shard(ofDigest: digest, count: 4) - 1] += 1
        }
        #expect(counts.allSatisfy { (850...1150).contains($0) }, "\(counts)")
    }

    @Test("Ringtones declared alike share a shard key; a bad one is placed by its id")
    func shardKey() throws {
        let manifest = try BatchManifest(
            data: Data(
                """
                {"ringtones": [
                  {"id": "a", "clips": ["x.wav", "y.wav"]}, {"id": "b", "clips": ["x.wav", "y.wav"]},
                  {"id": "c", "clips": ["y.wav", "x.wav"]}, {"id": "d", "clips": ["x.wav", "y.wav"], "gap": 1},
                  {"id": "e", "clips": []}
                ]}
                """.utf8), folder: "/m", base: RenderSettings())
        let keys = manifest.items.map(\.shardKey)
        #expect(keys[0] == keys[1])
        #expect(Set(keys).count == 4)
        #expect(keys[4] == "shard-v1-id\ne")
        #expect(manifest.items[0].writtenClips == ["x.wav", "y.wav"])
    }
}
