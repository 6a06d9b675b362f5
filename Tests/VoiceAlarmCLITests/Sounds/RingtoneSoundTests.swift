import Foundation
import TestSupport
import Testing

/// Runs the binary without holding a thread while it runs.
private func run(_ arguments: [String]) async throws -> ProcessResult {
    guard FileManager.default.isExecutableFile(atPath: ProjectPaths.binary) else {
        throw TestSupportError("no binary at \(ProjectPaths.binary): run 'make test', which builds it first")
    }
    return try await ProcessRunner.run(ProjectPaths.binary, arguments)
}

/// `render --json`: the report, and every clip edge inside the ringtone (seconds).
private func render(_ clips: [String], to output: String, _ extra: [String] = []) async throws -> (report: [String: Any], edges: [Double], stderr: String) {
    let result = try await run(["render", "--json", "-o", output] + extra + clips)
    guard result.status == 0 else { throw TestSupportError("render failed: \(result.stderr)") }
    let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
    let used = (report["clips"] as? [[String: Any]] ?? []).filter { $0["used"] as? Bool == true }
    let edges = used.flatMap { clip -> [Double] in
        let start = clip["start"] as? Double ?? 0
        return [start, start + (clip["duration"] as? Double ?? 0)]
    }
    return (report, edges, result.stderr)
}

/// The `loudness.shortfall` object of a report, when there is one.
private func shortfall(_ report: [String: Any]) -> [String: Any]? {
    (report["loudness"] as? [String: Any])?["shortfall"] as? [String: Any]
}

/// The three defects the ringtone had on ordinary recordings, through the binary, measured by
/// independent tools (pyloudnorm, a second-difference click detector, both on ffmpeg's decode).
@Suite("The ringtone sounds right on any recording, through the binary")
struct RingtoneSoundTests {
    @Test("No click where clips built to click meet each other, a gap, or the loop seam", arguments: [("m4a", "0.3"), ("wav", "0")])
    func joins(_ format: String, _ gap: String) async throws {
        let corpus = try await DifficultCorpus.shared()
        let dir = TemporaryDirectory("cli-joins")
        var clicks: [String] = []
        for kind in ["tone", "dc", "noise", "music", "hum"] {
            let clips = Array(try #require(corpus.clips[kind]).prefix(3))
            let file = dir.file("\(kind).\(format)")
            let rendered = try await render(clips, to: file, ["--gap", gap])
            let found = try await JoinContinuity.measure(file, joins: rendered.edges, lossy: format == "m4a")
            if found.max >= JoinContinuity.click {
                clicks.append(
                    "\(kind): "
                        + found.joins.filter { $0.ratio >= JoinContinuity.click }.map { String(format: "%.3f s (%.0f×)", $0.at, $0.ratio) }.joined(
                            separator: ", ")
                        + (found.seam >= JoinContinuity.click ? String(format: " seam (%.0f×)", found.seam) : ""))
            }
        }
        #expect(clicks.isEmpty, "clicks: \(clicks.joined(separator: "; "))")
    }

    @Test("Loudness within 0.5 LU of the target by pyloudnorm, or a typed shortfall that says how far and why")
    func loudness() async throws {
        let corpus = try await DifficultCorpus.shared()
        let dir = TemporaryDirectory("cli-loudness")
        // The reported pair (alsa-utils' "Front Left" as ogg and webm), a plain ringtone, and the
        // corpus ringtones the earlier processing left 0.8-23 LU under with no reason given:
        // noise+DC, near-silent, DC+music, noise bed, DC+quiet+noise, tone bed+speech.
        let playlists =
            [Array(try #require(corpus.clips["peaky"]).prefix(2))]
            + [0, 11, 13, 16, 19, 48, 57].map { corpus.ringtones[$0].clips }
        var off: [String] = []
        for (index, clips) in playlists.enumerated() {
            let file = dir.file("r\(index).m4a")
            let rendered = try await render(clips, to: file)
            let measured = try await IndependentMeasure.python(file)
            let names = clips.map { ($0 as NSString).lastPathComponent }.joined(separator: " ")
            #expect(measured.truePeak <= -1.0, "\(names): true peak \(measured.truePeak) dBTP")
            if let short = shortfall(rendered.report) {
                let by = short["by"] as? Double ?? 0
                #expect(
                    abs(by - (-16 - measured.integrated)) < 0.4 && short["reason"] is String && short["detail"] is String,
                    "\(names): \(short) but pyloudnorm measured \(measured.integrated)")
                #expect(rendered.stderr.contains("warning: \(file): loudness"), "a shortfall is never silent: \(rendered.stderr)")
            } else if abs(measured.integrated + 16) > 0.5 {
                off.append(String(format: "%@: %.2f LUFS", names, measured.integrated))
            }
        }
        #expect(off.isEmpty, "off target with no reason given: \(off)")
    }

    @Test("A near-silent take: render, check, batch and build each say how far under and why, in JSON and text; --quiet hides the summary, not the warning")
    func shortfallEverywhere() async throws {
        let corpus = try await DifficultCorpus.shared()
        let quiet = try #require(corpus.clips["quiet"]).first!
        let dir = TemporaryDirectory("cli-shortfall")

        let file = dir.file("quiet.m4a")
        let quietRun = try await run(["render", "-q", "-o", file, quiet])
        #expect(
            quietRun.status == 0 && quietRun.stderr.hasPrefix("warning: \(file): loudness ") && quietRun.stderr.contains("the +20 dB gain cap"),
            "\(quietRun.stderr)")
        let rendered = try await render([quiet], to: file)
        #expect(shortfall(rendered.report)?["reason"] as? String == "gainCap")
        #expect(rendered.report["passes"] as? [String: Int] == ["measure": 1, "encode": 1])

        let checked = try await run(["check", "--json", file])
        #expect(checked.status == 0, "a quiet file is still shippable")
        let verdict = try #require(try JSONSerialization.jsonObject(with: checked.stdoutData) as? [String: Any])
        #expect(shortfall(verdict)?["reason"] as? String == "quiet")
        #expect(checked.stderr.contains("warning: \(file): loudness") && checked.stderr.contains("LU under the -16 LUFS target"))
        let strict = try await run(["check", "--target-lufs", "-40", file])
        #expect(strict.status == 0 && !strict.stderr.contains("warning"), "on its own target: \(strict.stderr)")

        let manifest = dir.file("m.json")
        try Data(#"{"ringtones": [{"id": "quiet", "clips": ["\#(quiet)"]}, {"id": "calm", "clips": ["\#(ProjectPaths.sampleAudio)/calm.wav"]}]}"#.utf8)
            .write(to: URL(fileURLWithPath: manifest))
        let batch = try await run(["batch", manifest, "--out", dir.file("out"), "--json"])
        #expect(batch.status == 0, "\(batch.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: batch.stdoutData) as? [String: Any])
        let ringtones = try #require(report["ringtones"] as? [[String: Any]])
        #expect((ringtones.first { $0["id"] as? String == "quiet" }?["shortfall"] as? [String: Any])?["reason"] as? String == "gainCap")
        #expect(ringtones.first { $0["id"] as? String == "calm" }?["shortfall"] is NSNull)
        #expect((report["warnings"] as? [[String: String]])?.contains { $0["id"] == "quiet" && $0["warning"]?.contains("loudness") == true } == true)
        let text = try await run(["batch", manifest, "--out", dir.file("out-text")])
        #expect(text.stderr.contains("warning: quiet: loudness"), "\(text.stderr)")

        let data = dir.file("data")
        let clip = try await run(["--data-dir", data, "-q", "clip", "import", quiet])
        _ = try await run(["--data-dir", data, "-q", "manifesto", "set", clip.stdout.trimmingCharacters(in: .newlines)])
        let added = try await run(["--data-dir", data, "alarm", "add", "manifesto", "--at", "07:00", "--days", "mon"])
        #expect(added.stderr.contains("loudness"), "the first build says it too: \(added.stderr)")
        try FileManager.default.removeItem(atPath: "\(data)/Sounds")
        try FileManager.default.createDirectory(atPath: "\(data)/Sounds", withIntermediateDirectories: true)
        let built = try await run(["--data-dir", data, "build", "--all", "--json"])
        let outcome = try #require(try JSONSerialization.jsonObject(with: built.stdoutData) as? [String: Any])
        let shortfalls = try #require(outcome["shortfalls"] as? [[String: Any]])
        #expect(shortfalls.count == 1 && (shortfalls.first?["shortfall"] as? [String: Any])?["reason"] as? String == "gainCap", "\(outcome)")
        #expect(built.stderr.contains("its ringtone's loudness is") && built.stderr.contains("gain cap"), "\(built.stderr)")
    }
}
