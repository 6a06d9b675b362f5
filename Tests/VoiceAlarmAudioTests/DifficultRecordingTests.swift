import Foundation
import TestSupport
import Testing
import VoiceAlarmAudio
import VoiceAlarmCore

/// Renders `clips` in-process and returns the report and every clip edge inside the ringtone (seconds).
private func render(_ clips: [String], to output: String, settings: RenderSettings = RenderSettings()) throws -> (RenderReport, [Double]) {
    let report = try RingtoneRenderer().render(clips.map(DecodingClipSource.init(path:)), settings: settings, to: output)
    let edges = report.clips.filter(\.used).flatMap { [$0.start!, $0.start! + $0.duration] }
    return (report, edges)
}

/// A clip the ffmpeg CLI makes from a filter graph (`lavfi`), `seconds` long, 44.1 kHz mono wav.
private func generated(_ graph: String, seconds: Double, in dir: TemporaryDirectory, name: String) async throws -> String {
    let path = dir.file(name)
    let made = try await ProcessRunner.run(
        "ffmpeg",
        [
            "-v", "error", "-y", "-f", "lavfi", "-i", graph, "-t", String(seconds),
            "-ac", "1", "-ar", "44100", "-c:a", "pcm_s16le", path,
        ])
    guard made.status == 0 else { throw TestSupportError("ffmpeg could not make \(name): \(made.stderr)") }
    return path
}

/// The audio rules in-process (the defects themselves are tested through the binary, in
/// `RingtoneSoundTests`).
@Suite("The ringtone sounds right on the recordings people actually make")
struct DifficultRecordingTests {
    @Test("A DC offset is removed before anything is measured: the take trims like the clean one, and the ringtone has none")
    func dcOffset() async throws {
        let dir = TemporaryDirectory("dc")
        let clean = "\(ProjectPaths.sampleAudio)/calm.wav"
        let offset = dir.file("offset.wav")
        let made = try await ProcessRunner.run(
            "ffmpeg",
            [
                "-v", "error", "-i", clean, "-af", "aformat=sample_fmts=flt,dcshift=shift=0.1",
                "-c:a", "pcm_s16le", offset,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let lengths = try [clean, offset].map { path in
            try DecodingClipSource(path: path).measure(within: 1_000_000, trimSilence: true, sampleRate: 44_100)
        }
        guard case .exact(let plain) = lengths[0], case .exact(let shifted) = lengths[1] else { Issue.record("\(lengths)"); return }
        #expect(abs(plain - shifted) < 441, "trimmed \(plain) samples clean, \(shifted) with the offset (within 10 ms)")
        let file = dir.file("ringtone.wav")
        _ = try render([offset], to: file, settings: RenderSettings(normalize: false, format: .wav))
        let samples = try await IndependentMeasure.decodedSamples(file)
        let mean = samples.reduce(0.0) { $0 + Double($1) } / Double(samples.count) / 32_768
        #expect(abs(mean) < 0.001, "the ringtone's mean is \(mean), its source's 0.1")
    }

    @Test("A near-silent take is raised by the +20 dB cap and says so, in one pass and one encoding; clean speech takes one of each too")
    func reasonsAndPasses() async throws {
        let corpus = try await DifficultCorpus.shared()
        let dir = TemporaryDirectory("passes")
        let quietest = try #require(corpus.clips["quiet"]).first!
        let (quiet, _) = try render([quietest], to: dir.file("quiet.m4a"))
        #expect(quiet.loudness.shortfall?.reason == .gainCap)
        #expect(quiet.passes == .init(measure: 1, encode: 1))
        let speech = ["calm.wav", "ready.mp3", "grateful.m4a", "kind.ogg"].map { "\(ProjectPaths.sampleAudio)/\($0)" }
        let (clean, _) = try render(speech, to: dir.file("clean.m4a"))
        // Speech is limited heavily (4-5 LU): the gain predicted from the one measuring pass holds.
        #expect(clean.passes == .init(measure: 1, encode: 1), "\(clean.passes)")
        #expect(clean.loudness.shortfall == nil && abs(clean.loudness.integrated + 16) <= GainSearch.tolerance)
    }

    @Test(
        "A dense playlist (tone, music and noise beds edge to edge) takes one measuring pass and one encoding, on target and under the ceiling by other meters")
    func densePlaylistInOnePass() async throws {
        let corpus = try await DifficultCorpus.shared()
        let dir = TemporaryDirectory("dense")
        let clips = [try #require(corpus.clips["tone"])[0], try #require(corpus.clips["music"])[1], try #require(corpus.clips["noise"])[2]]
        let file = dir.file("dense.m4a")
        let (report, _) = try render(clips, to: file)
        #expect(report.passes == .init(measure: 1, encode: 1), "\(report.passes)")
        let measured = try await IndependentMeasure.python(file)
        #expect(abs(measured.integrated + 16) <= LoudnessShortfall.band, "pyloudnorm: \(measured.integrated) LUFS")
        #expect(report.loudness.shortfall == nil)
        let summary = try await ProcessRunner.run("ffmpeg", ["-hide_banner", "-nostats", "-i", file, "-af", "ebur128=peak=true", "-f", "null", "-"])
        let peak = summary.stderr.components(separatedBy: "Peak:").last.flatMap { Double($0.split(separator: " ").first ?? "") }
        #expect(try #require(peak) <= AudioLevels.truePeakCeilingDBTP, "ebur128 true peak \(peak ?? 0) dBTP")
    }

    @Test("All DC is refused as silent, naming it; pure hum as inaudible; a clipped square wave still makes a ringtone under the ceiling")
    func hostileClips() async throws {
        let dir = TemporaryDirectory("hostile")
        let dc = try await generated("aevalsrc=0.3:s=44100", seconds: 3, in: dir, name: "all-dc.wav")
        #expect {
            _ = try render([dc], to: dir.file("dc.m4a"))
        } throws: { error in
            (error as? ClipSourceError)?.description.contains("all-dc.wav") == true && "\(error)".contains("silent")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("dc.m4a")))
        // Mains hum alone is sound no bedside speaker plays: treated as silent (`Audibility`).
        let hum = try await generated("sine=f=50:r=44100", seconds: 3, in: dir, name: "hum.wav")
        #expect {
            _ = try render([hum], to: dir.file("hum.m4a"))
        } throws: { error in
            "\(error)".contains("hum.wav: inaudible")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("hum.m4a")))
        let square = try await generated("aevalsrc='0.99*sgn(sin(2*PI*220*t))':s=44100", seconds: 3, in: dir, name: "square.wav")
        for clip in [square] {
            let file = dir.file(((clip as NSString).lastPathComponent as NSString).deletingPathExtension + ".m4a")
            let (report, _) = try render([clip], to: file)
            let measured = try await IndependentMeasure.python(file)
            #expect(measured.truePeak <= AudioLevels.truePeakCeilingDBTP, "\(clip): \(measured.truePeak) dBTP")
            #expect(
                abs(measured.integrated + 16) <= LoudnessShortfall.band || report.loudness.shortfall != nil,
                "\(clip): \(measured.integrated) LUFS, no reason given")
        }
    }
}
