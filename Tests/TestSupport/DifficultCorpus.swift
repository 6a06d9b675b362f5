import Foundation

/// The recordings people actually make (DC offset, tone, music and noise beds, hot, quiet, hum,
/// peaky), made by `scripts/difficult_corpus.py` with the ffmpeg CLI from SampleAudio and
/// alsa-utils' recordings, fixed seeds: the corpus `make bench` measures too.
public struct DifficultCorpus: Sendable {
    /// The folder holding `clips/` and `corpus.json`.
    public let path: String
    /// Each clip's path, by kind (`clean`, `dc`, `tone`, `music`, `noise`, `hot`, `quiet`, `hum`, `peaky`), in order.
    public let clips: [String: [String]]
    /// The corpus's playlists, in order: (id, clip paths).
    public let ringtones: [(id: String, clips: [String])]

    /// The corpus, made on first use (a few seconds) into `.build/difficult-corpus`, and made
    /// again only when the script that makes it changes.
    public static func shared() async throws -> DifficultCorpus { try await maker.corpus() }

    private static let maker = Maker()

    /// Makes the corpus once however many tests ask at once (an actor alone would let a second
    /// caller in while the first awaits the script).
    private actor Maker {
        private var making: Task<DifficultCorpus, any Error>?

        func corpus() async throws -> DifficultCorpus {
            if making == nil { making = Task { try await Self.make() } }
            return try await making!.value
        }

        private static func make() async throws -> DifficultCorpus {
            let folder = "\(ProjectPaths.root)/.build/difficult-corpus"
            let script = "\(ProjectPaths.root)/scripts/difficult_corpus.py"
            let stamp = "\(folder)/made-by.py"
            if (try? Data(contentsOf: URL(fileURLWithPath: stamp))) != (try Data(contentsOf: URL(fileURLWithPath: script))) {
                try? FileManager.default.removeItem(atPath: folder)
                let result = try await ProcessRunner.run("python3", [script, folder, "60"])
                guard result.status == 0 else { throw TestSupportError("difficult_corpus.py failed: \(result.stderr)") }
                try FileManager.default.copyItem(atPath: script, toPath: stamp)
            }
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/corpus.json"))
            struct Manifest: Decodable {
                struct Ringtone: Decodable { var id: String; var clips: [String] }
                var clips: [String: String]
                var ringtones: [Ringtone]
            }
            let manifest = try JSONDecoder().decode(Manifest.self, from: data)
            var byKind: [String: [String]] = [:]
            for (path, kind) in manifest.clips.sorted(by: { $0.key < $1.key }) { byKind[kind, default: []].append(path) }
            return DifficultCorpus(path: folder, clips: byKind, ringtones: manifest.ringtones.map { ($0.id, $0.clips) })
        }
    }
}

/// What `Tests/Support/joins.py` found: the click score at each clip join and at the loop seam.
public struct JoinContinuity: Decodable, Sendable {
    public struct Join: Decodable, Sendable { public var at: Double; public var ratio: Double }
    public var joins: [Join]
    public var seam: Double
    public var max: Double

    /// A join or seam scoring above this is a click: a hard cut scores 10–2,000, a faded edge or
    /// speech under 3.
    public static let click = 5.0

    /// Scores `file` at `joins` (seconds) and its loop seam. Digital silence around a join counts as
    /// -90 dBFS of second difference for PCM; for a lossy file, -60 dBFS: AAC at 96 kbit/s decodes
    /// a ringtone's first samples with up to -53 dBFS of its own error (a step at the loop seam
    /// however the ringtone begins), a codec matter 37 dB under the content, not a join's. A hard
    /// cut through anything louder than -46 dBFS still scores over `click`.
    public static func measure(_ file: String, joins: [Double], lossy: Bool) async throws -> JoinContinuity {
        let result = try await WarmPython.run(
            "\(ProjectPaths.root)/Tests/Support/joins.py",
            ["--floor", lossy ? "-60" : "-90", file]
                + joins.map { String($0) })
        guard result.status == 0 else { throw TestSupportError("joins.py failed on \(file): \(result.stderr)") }
        return try JSONDecoder().decode(JoinContinuity.self, from: result.stdoutData)
    }
}
