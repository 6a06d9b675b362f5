import Foundation
import TestSupport
import Testing

let shardEngineVariables = [
    "JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_STEP", "SLURM_ARRAY_TASK_COUNT", "AWS_BATCH_JOB_ARRAY_INDEX",
]

/// How a shard learns its index, as an engine would give it.
enum ShardSource: String, CaseIterable, Sendable {
    case option, kubernetes, slurm

    /// The extra arguments and environment of shard `index` (0-based) of `count`.
    func launch(_ index: Int, of count: Int) -> (arguments: [String], environment: [String: String]) {
        switch self {
        case .option: (["--shard", "\(index + 1)/\(count)"], [:])
        case .kubernetes: (["--shards", "\(count)"], ["JOB_COMPLETION_INDEX": "\(index)"])
        // sbatch --array=1-COUNT
        case .slurm:
            (
                [],
                [
                    "SLURM_ARRAY_TASK_ID": "\(index + 1)", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "\(count)",
                    "SLURM_ARRAY_TASK_COUNT": "\(count)",
                ]
            )
        }
    }

    var reported: String {
        switch self {
        case .option: "--shard"
        case .kubernetes: "JOB_COMPLETION_INDEX"
        case .slurm: "SLURM_ARRAY_TASK_ID"
        }
    }
}

/// One shard process (the binary, or a script that runs it), started at once, its output kept in files.
final class ShardProcess {
    let process = Process()
    let stdoutPath: String
    let stderrPath: String

    init(_ arguments: [String], environment extra: [String: String], logs: String, executable: String = ProjectPaths.binary) throws {
        var environment = ProcessInfo.processInfo.environment
        for name in shardEngineVariables { environment[name] = nil }
        environment.merge(extra) { $1 }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        stdoutPath = logs + ".out"
        stderrPath = logs + ".err"
        guard FileManager.default.createFile(atPath: stdoutPath, contents: nil),
            FileManager.default.createFile(atPath: stderrPath, contents: nil)
        else {
            throw TestSupportError("cannot create \(logs).out or .err")
        }
        process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits for the shard; its status, its JSON report and its stderr.
    func finish() async -> (status: Int32, report: [String: Any], stderr: String) {
        await process.ended()
        let out = FileManager.default.contents(atPath: stdoutPath) ?? Data()
        let report = (try? JSONSerialization.jsonObject(with: out) as? [String: Any]) ?? [:]
        return (process.terminationStatus, report, String(decoding: FileManager.default.contents(atPath: stderrPath) ?? Data(), as: UTF8.self))
    }
}

/// A folder with six short clips and a 60-ringtone manifest over them (wav, so the codec does
/// not slow the test); r50…r59 are declared exactly like r00…r09.
final class ShardFolder {
    let dir = TemporaryDirectory("shards")
    var manifest: String { dir.file("manifest.json") }
    let ids = (0..<60).map { String(format: "r%02d", $0) }
    /// Each ringtone's clips and gap.
    private(set) var plan: [String: (clips: [String], gap: Double)] = [:]

    init() async throws {
        try FileManager.default.createDirectory(atPath: dir.file("clips"), withIntermediateDirectories: true)
        for k in 0..<6 {
            try await AudioFixtures.tone(dir.file("clips/c\(k).\(k % 2 == 0 ? "wav" : "flac")"), seconds: 0.6 + Double(k) / 5, frequency: 300 + 110 * Double(k))
        }
        var entries: [String] = []
        for (n, id) in ids.enumerated() {
            let k = n < 50 ? n : n - 50
            let clips = (0...(k % 3)).map { "clips/c\((k + $0 * (k / 3 + 1)) % 6).\((k + $0 * (k / 3 + 1)) % 6 % 2 == 0 ? "wav" : "flac")" }
            let gap = Double(k % 4) / 10
            plan[id] = (clips, gap)
            entries.append(#"{"id": "\#(id)", "clips": [\#(clips.map { "\"\($0)\"" }.joined(separator: ", "))], "gap": \#(gap)}"#)
        }
        try #"{"format": "wav", "ringtones": [\#(entries.joined(separator: ",\n"))]}"#.write(toFile: manifest, atomically: true, encoding: .utf8)
    }

    /// The ringtones that use `clip`.
    func users(of clip: String) -> Set<String> { Set(plan.filter { $0.value.clips.contains(clip) }.keys) }

    /// Runs `count` shards at the same time into `out`; returns each one's status, report and stderr.
    func runShards(
        _ source: ShardSource, out: String, count: Int = 4, extra: [String] = []
    ) async throws -> [(status: Int32, report: [String: Any], stderr: String)] {
        let shards = try (0..<count).map { index in
            let (arguments, environment) = source.launch(index, of: count)
            return try ShardProcess(
                ["batch", manifest, "--out", out, "--json", "--jobs", "1"] + arguments + extra, environment: environment,
                logs: dir.file("shard-\(source.rawValue)-\(index)-\(UUID().uuidString.prefix(4))"))
        }
        return await shards.asyncMap { await $0.finish() }
    }

    func verify(_ out: String) async throws -> (ProcessResult, [String: Any]) {
        let result = try await voicealarm(["batch", manifest, "--out", out, "--verify", "--json"])
        return (result, (try? JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]) ?? [:])
    }
}

func reportIDs(_ report: [String: Any], _ key: String) -> [String] { report[key] as? [String] ?? [] }
