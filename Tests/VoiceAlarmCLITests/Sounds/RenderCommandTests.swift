import Foundation
import TestSupport
import Testing

@Suite("voicealarm render and check, through the binary")
struct RenderCommandTests {
    @Test("stdout carries the output path alone; the summary goes to stderr")
    func plainOutput() async throws {
        let dir = TemporaryDirectory("cli")
        let out = dir.file("morning.m4a")
        let result = try await voicealarm(["render", "-o", out, "\(ProjectPaths.sampleAudio)/calm.wav"])
        #expect(result.status == 0)
        #expect(result.stdout == out + "\n")
        #expect(result.stderr.hasPrefix("Rendered 1 of 1 clip into \(out)"))
        let quiet = try await voicealarm(["render", "-o", out, "--quiet", "\(ProjectPaths.sampleAudio)/calm.wav"])
        #expect(quiet.stderr.isEmpty)
    }

    @Test("--json prints the report, with null start and the reason for clips left out")
    func jsonReport() async throws {
        let dir = TemporaryDirectory("json")
        let out = dir.file("morning.caf")
        let inputs = ["strong.flac", "manifesto.flac", "calm.wav"].map { "\(ProjectPaths.sampleAudio)/\($0)" }
        // --json before the subcommand: global options go anywhere.
        let result = try await voicealarm(["--json", "render", "--gap", "0.5", "-o", out] + inputs)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(Set(report.keys) == ["output", "format", "codec", "sampleRate", "channels", "duration", "bytes", "loudness", "clips", "passes"])
        #expect(report["format"] as? String == "caf")
        #expect(report["codec"] as? String == "pcm_s16le")
        #expect(report["sampleRate"] as? Int == 44_100)
        #expect(report["channels"] as? Int == 1)
        let bytes = try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int
        #expect(report["bytes"] as? Int == bytes)
        let measured = try await IndependentMeasure.python(out)
        #expect(abs((report["duration"] as? Double ?? 0) - measured.duration) < 0.001)
        let loudness = try #require(report["loudness"] as? [String: Any])
        #expect(Set(loudness.keys) == ["integrated", "truePeak", "shortfall"] && loudness["shortfall"] is NSNull)
        #expect(abs(loudness["integrated"] as! Double - measured.integrated) < 0.5)
        #expect(abs(loudness["truePeak"] as! Double - measured.truePeak) < 0.5)
        let clips = try #require(report["clips"] as? [[String: Any]])
        #expect(clips.count == 3)
        #expect(clips.map { $0["used"] as? Bool } == [true, false, false])
        #expect(clips[1]["start"] is NSNull)
        #expect(clips[1]["reason"] as? String == "crosses cap")
        #expect(clips[2]["reason"] as? String == "after a clip that crossed the cap")
        #expect(clips[0]["trimmed"] as? Bool == true)
        #expect(Set(clips[0].keys) == ["input", "used", "start", "duration", "trimmed", "reason"])
    }

    @Test("The format follows the extension; --format agreeing with it is fine", arguments: ["wav", "aiff", "aif", "mp3", "caf", "m4a"])
    func formatFromExtension(_ ext: String) async throws {
        let dir = TemporaryDirectory("ext")
        let out = dir.file("a.\(ext)")
        let format = ext == "aif" ? "aiff" : ext
        let result = try await voicealarm(["render", "--format", format, "-o", out, "\(ProjectPaths.sampleAudio)/kind.ogg"])
        #expect(result.status == 0, "\(result.stderr)")
        let probe = try await IndependentMeasure.probe(out)
        #expect(probe.formatName.contains(format == "m4a" ? "mp4" : format))
    }

    @Test("check accepts what render makes, and refuses what an alarm would")
    func check() async throws {
        let dir = TemporaryDirectory("check")
        let good = dir.file("good.m4a")
        _ = try await voicealarm(["render", "-q", "-o", good, "\(ProjectPaths.sampleAudio)/calm.wav"])
        let ok = try await voicealarm(["check", good])
        #expect(ok.status == 0)
        #expect(ok.stdout.contains("shippable"))
        #expect(ok.stderr.isEmpty)

        let long = dir.file("long.wav")
        try await AudioFixtures.tone(long, seconds: 30)
        let noExtension = dir.file("noext")
        try FileManager.default.copyItem(atPath: good, toPath: noExtension)
        let misnamed = dir.file("misnamed.m4a")
        try await AudioFixtures.tone(misnamed, seconds: 2, extra: ["-f", "wav"])
        let ogg = "\(ProjectPaths.sampleAudio)/kind.ogg"
        for (file, reason) in [
            (long, "shorter than 30 s"), (noExtension, "no extension"), (misnamed, "the extension says m4a"), (ogg, "not an alarm sound format"),
        ] {
            let result = try await voicealarm(["check", "--json", file])
            #expect(result.status == 1)
            let verdict = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
            #expect((verdict?["problems"] as? [String])?.contains { $0.contains(reason) } == true, "\(file): \(result.stdout)")
        }
    }
}
