import Foundation
import TestSupport
import Testing
import VoiceAlarmAudio
import VoiceAlarmCore

private let samples = ProjectPaths.sampleAudio
private let speech = ["calm.wav", "ready.mp3", "grateful.m4a", "strong.flac", "kind.ogg"].map { "\(samples)/\($0)" }

/// Audio files as clips decoded on demand.
private func files(_ paths: [String]) -> [any ClipSource] {
    paths.map(DecodingClipSource.init(path:))
}

@Suite("Rendering ringtones, checked by independent tools")
struct RingtoneRendererTests {
    @Test("The default ringtone is AAC-LC m4a, 44.1 kHz mono, faststart, within the cap")
    func defaultM4A() async throws {
        let dir = TemporaryDirectory("m4a")
        let out = dir.file("morning.m4a")
        let report = try RingtoneRenderer().render(files(speech), settings: RenderSettings(), to: out)
        let probe = try await IndependentMeasure.probe(out)
        #expect(probe.formatName.contains("mp4"))
        #expect(probe.codecName == "aac")
        #expect(probe.profile == "LC")
        #expect(probe.sampleRate == 44_100 && probe.channels == 1)
        await #expect(try IndependentMeasure.moovBeforeMdat(out))
        let decoded = try await IndependentMeasure.decodedSamples(out)
        #expect(decoded.count <= 1_278_900)
        #expect(abs(Double(decoded.count) / 44_100 - report.duration) < 0.001)
        #expect(report.clips.allSatisfy { $0.used })
        #expect(dir.contents() == ["morning.m4a"], "no temporary file left")
    }

    struct FormatCase: CustomTestStringConvertible, Sendable {
        var format: RingtoneFormat
        var codec: RingtoneCodec?
        var container: String
        var codecName: String
        var testDescription: String { "\(format.rawValue) \(codec?.rawValue ?? "default")" }
    }

    @Test(
        "Every format decodes within the cap, at the target loudness, under -1 dBTP",
        arguments: [
            FormatCase(format: .m4a, codec: nil, container: "mp4", codecName: "aac"),
            FormatCase(format: .caf, codec: nil, container: "caf", codecName: "pcm_s16le"),
            FormatCase(format: .caf, codec: .ima4, container: "caf", codecName: "adpcm_ima_qt"),
            FormatCase(format: .wav, codec: nil, container: "wav", codecName: "pcm_s16le"),
            FormatCase(format: .aiff, codec: nil, container: "aiff", codecName: "pcm_s16be"),
            FormatCase(format: .mp3, codec: nil, container: "mp3", codecName: "mp3"),
        ])
    func formats(_ c: FormatCase) async throws {
        let dir = TemporaryDirectory("format")
        let out = dir.file("manifesto.\(c.format.fileExtension)")
        // The 35-second manifesto: cut at the cap, so every format is tested at its limit.
        let report = try RingtoneRenderer()
            .render(files(["\(samples)/manifesto.flac"]), settings: RenderSettings(format: c.format, codec: c.codec), to: out)
        let probe = try await IndependentMeasure.probe(out)
        #expect(probe.formatName.contains(c.container))
        #expect(probe.codecName == c.codecName)
        #expect(report.codec == c.codecName)
        let measured = try await IndependentMeasure.python(out)
        #expect(measured.samples <= 1_278_900, "decodes to \(measured.duration) s")
        #expect(measured.duration > 28.9)
        #expect(abs(measured.integrated - -16) <= 1.0, "integrated \(measured.integrated) LUFS")
        #expect(measured.truePeak <= -1.0, "true peak \(measured.truePeak) dBTP")
        #expect(report.clips[0].reason == "cut at cap")
    }

    @Test("A different loudness target is met, measured by pyloudnorm", arguments: [-23.0, -14.0])
    func loudnessTarget(_ target: Double) async throws {
        let dir = TemporaryDirectory("lufs")
        let out = dir.file("a.wav")
        let report = try RingtoneRenderer().render(files(speech), settings: RenderSettings(targetLUFS: target, format: .wav), to: out)
        let measured = try await IndependentMeasure.python(out)
        #expect(abs(measured.integrated - target) <= 1.0, "integrated \(measured.integrated)")
        #expect(abs(measured.integrated - report.loudness.integrated) <= 0.5)
        #expect(measured.truePeak <= -1.0)
    }

    @Test("Normalisation gain is capped at +20 dB: a very quiet take is raised, not blown up")
    func gainCeiling() async throws {
        let dir = TemporaryDirectory("quiet")
        let quiet = dir.file("quiet.wav")
        try await AudioFixtures.tone(quiet, seconds: 3, level: -50)
        let before = try await IndependentMeasure.python(quiet)
        let out = dir.file("out.wav")
        _ = try RingtoneRenderer().render(files([quiet]), settings: RenderSettings(format: .wav), to: out)
        let after = try await IndependentMeasure.python(out)
        #expect(abs((after.integrated - before.integrated) - 20) < 0.5, "gain \(after.integrated - before.integrated) dB")
    }

    @Test("--no-normalize leaves the level as recorded")
    func noNormalize() async throws {
        let dir = TemporaryDirectory("raw")
        let tone = dir.file("tone.wav")
        try await AudioFixtures.tone(tone, seconds: 3, level: -20)
        let out = dir.file("out.wav")
        _ = try RingtoneRenderer().render(files([tone]), settings: RenderSettings(trimSilence: false, normalize: false, format: .wav), to: out)
        let a = try await IndependentMeasure.python(tone), b = try await IndependentMeasure.python(out)
        #expect(abs(a.integrated - b.integrated) < 0.1)
    }

    struct CapCase: CustomTestStringConvertible, Sendable {
        var clips: [Double]
        var gap: Double
        var used: [Bool]
        var seconds: Double
        var testDescription: String { "\(clips) gap \(gap)" }
    }

    @Test(
        "The cap, end to end, counted in decoded samples",
        arguments: [
            CapCase(clips: [10, 10, 8.9], gap: 0, used: [true, true, true], seconds: 28.9),
            CapCase(clips: [10, 10, 9.0], gap: 0, used: [true, true, true], seconds: 29.0),
            CapCase(clips: [10, 10, 9.1], gap: 0, used: [true, true, false], seconds: 20.0),
            CapCase(clips: [40], gap: 0, used: [true], seconds: 29.0),
            CapCase(clips: [12, 12, 6, 2], gap: 0, used: [true, true, false, false], seconds: 24.0),
            CapCase(clips: [9.5, 9.5, 9.5], gap: 0.5, used: [true, true, false], seconds: 19.5),
            CapCase(clips: [9, 9, 10], gap: 0.5, used: [true, true, true], seconds: 29.0),
        ])
    func capEndToEnd(_ c: CapCase) async throws {
        let dir = TemporaryDirectory("cap")
        var inputs: [String] = []
        for (i, seconds) in c.clips.enumerated() {
            let path = dir.file("clip\(i).wav")
            try await AudioFixtures.tone(path, seconds: seconds, frequency: 300 + 100 * Double(i))
            inputs.append(path)
        }
        let out = dir.file("out.wav")
        let settings = RenderSettings(gap: c.gap, trimSilence: false, normalize: false, format: .wav)
        let report = try RingtoneRenderer().render(files(inputs), settings: settings, to: out)
        #expect(report.clips.map(\.used) == c.used)
        let decoded = try await IndependentMeasure.decodedSamples(out)
        #expect(decoded.count == Int((c.seconds * 44_100).rounded()))
        #expect(decoded.count <= 1_278_900)
    }

    @Test("A cut at the cap fades out, and every ringtone starts and ends without a click")
    func fades() async throws {
        let dir = TemporaryDirectory("fade")
        let long = dir.file("long.wav")
        try await AudioFixtures.tone(long, seconds: 40, level: -10)
        let out = dir.file("out.wav")
        _ = try RingtoneRenderer().render(files([long]), settings: RenderSettings(trimSilence: false, normalize: false, format: .wav), to: out)
        let decoded = try await IndependentMeasure.decodedSamples(out)
        #expect(decoded.count == 1_278_900)
        let body = IndependentMeasure.rmsDB(decoded[1_000_000..<1_044_100])
        let lastTenMs = IndependentMeasure.rmsDB(decoded[(decoded.count - 441)...])
        let firstMs = IndependentMeasure.rmsDB(decoded[0..<44])
        #expect(body > -14, "body \(body) dBFS")
        #expect(lastTenMs < body - 30, "end \(lastTenMs) dBFS: the cut must fade out")
        #expect(firstMs < body - 20, "start \(firstMs) dBFS: the start must fade in")
        #expect(abs(Int(decoded.last!)) < 50 && abs(Int(decoded.first!)) < 50)
    }

    @Test("Inputs of any rate and layout render together; only the used ones are opened")
    func mixedInputs() async throws {
        let dir = TemporaryDirectory("mixed")
        let a = dir.file("a.flac"), b = dir.file("b.wav"), c = dir.file("c.opus")
        try await AudioFixtures.tone(a, seconds: 5, rate: 192_000, channels: 8)
        try await AudioFixtures.tone(b, seconds: 5, rate: 8_000, channels: 1)
        try await AudioFixtures.tone(c, seconds: 30, rate: 48_000, channels: 2, codec: "libopus")
        // The fourth input is not audio at all: it comes after the clip that crosses the cap, so it is never read.
        let never = dir.file("never.wav")
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: never))
        let report = try RingtoneRenderer().render(files([a, b, c, never]), settings: RenderSettings(format: .wav), to: dir.file("out.wav"))
        #expect(report.clips.map(\.used) == [true, true, false, false])
        #expect(report.clips[2].reason == "crosses cap")
        #expect(report.clips[3].reason == "after a clip that crossed the cap")
    }
}
