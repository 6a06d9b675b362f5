import Foundation
import TestSupport
import Testing

@testable import VoiceAlarmAudio

@Suite("Decoding anything FFmpeg reads into mono float at the output rate")
struct AudioDecoderTests {
    struct Input: CustomTestStringConvertible, Sendable {
        var file: String
        var rate: Int
        var channels: Int
        var codec: String?
        var expectedCodec: String
        var testDescription: String { "\(file) \(rate) Hz \(channels) ch" }
    }

    @Test(
        "Formats, rates and channel counts all decode to the right length and level",
        arguments: [
            Input(file: "a.wav", rate: 8_000, channels: 1, codec: nil, expectedCodec: "pcm_s16le"),
            Input(file: "a.wav", rate: 192_000, channels: 2, codec: nil, expectedCodec: "pcm_s16le"),
            Input(file: "a.aiff", rate: 22_050, channels: 1, codec: nil, expectedCodec: "pcm_s16be"),
            Input(file: "a.caf", rate: 48_000, channels: 2, codec: nil, expectedCodec: "pcm_s16be"),
            Input(file: "a.flac", rate: 96_000, channels: 6, codec: nil, expectedCodec: "flac"),
            Input(file: "a.mp3", rate: 44_100, channels: 2, codec: "libmp3lame", expectedCodec: "mp3"),
            Input(file: "a.m4a", rate: 48_000, channels: 1, codec: "aac", expectedCodec: "aac"),
            Input(file: "a.ogg", rate: 32_000, channels: 2, codec: "libvorbis", expectedCodec: "vorbis"),
            Input(file: "a.opus", rate: 48_000, channels: 1, codec: "libopus", expectedCodec: "opus"),
            Input(file: "a.webm", rate: 48_000, channels: 2, codec: "libopus", expectedCodec: "opus"),
            Input(file: "a.wav", rate: 48_000, channels: 8, codec: nil, expectedCodec: "pcm_s16le"),
        ])
    func decodes(_ input: Input) async throws {
        let dir = TemporaryDirectory("decode")
        let path = dir.file(input.file)
        try await AudioFixtures.tone(path, seconds: 3, rate: input.rate, channels: input.channels, level: -12, codec: input.codec)
        let decoder = try AudioDecoder(path: path, sampleRate: 44_100)
        #expect(decoder.codec == input.expectedCodec)
        #expect(decoder.sourceSampleRate == input.rate)
        #expect(decoder.sourceChannels == input.channels)
        let samples = try decoder.readAll()
        // Lossy codecs add or drop up to a few frames of priming; PCM and FLAC are exact.
        let tolerance = ["pcm_s16le", "pcm_s16be", "flac"].contains(input.expectedCodec) ? 2 : 3000
        #expect(abs(samples.count - 3 * 44_100) <= tolerance, "decoded \(samples.count) samples")
        // The same tone in every channel downmixes to a tone of the same shape: its RMS stays
        // near a -12 dBFS sine's (-15 dBFS) whatever the layout's downmix gain.
        let middle = samples[44_100..<88_200]
        let rms = 10 * log10(middle.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(middle.count))
        #expect(rms > -30 && rms < -12, "RMS \(rms) dBFS")
    }

    @Test("The resampled signal matches the ffmpeg CLI's own decode (correlation)")
    func matchesIndependentDecode() async throws {
        let dir = TemporaryDirectory("correlate")
        let path = dir.file("speech.flac")
        try FileManager.default.copyItem(atPath: "\(ProjectPaths.sampleAudio)/strong.flac", toPath: path)
        let ours = try AudioDecoder(path: path, sampleRate: 44_100).readAll()
        let theirs = try await IndependentMeasure.decodedSamples(path, rate: 44_100).map { Double($0) / 32768 }
        let n = min(ours.count, theirs.count)
        #expect(abs(ours.count - theirs.count) < 64)
        var dot = 0.0, a2 = 0.0, b2 = 0.0
        for i in 0..<n { dot += Double(ours[i]) * theirs[i]; a2 += Double(ours[i] * ours[i]); b2 += theirs[i] * theirs[i] }
        #expect(dot / (a2 * b2).squareRoot() > 0.99)
    }

    @Test("Reading stops at what is asked: a long recording is not decoded whole")
    func decodesOnlyWhatIsUsed() async throws {
        let dir = TemporaryDirectory("long")
        let path = dir.file("two-hours.wav")
        // Two hours at 8 kHz, 8-bit: a real two-hour file, small enough to make in a test.
        try await AudioFixtures.tone(path, seconds: 7200, rate: 8_000, level: -12, codec: "pcm_u8")
        let decoder = try AudioDecoder(path: path, sampleRate: 44_100)
        let reading = try ClipReader.read(decoder, budget: 29 * 44_100, trimSilence: true)
        #expect(reading.extent == .longerThan(29 * 44_100))
        #expect(reading.samples.count >= 29 * 44_100)
        // One read chunk and one resampled packet past the budget at most.
        #expect(decoder.samplesRead < 29 * 44_100 + 3 * 8192, "read \(decoder.samplesRead) samples")
    }

    @Test("Silence is trimmed from both ends, keeping 50 ms, and the length is exact")
    func trimsSilence() async throws {
        let dir = TemporaryDirectory("trim")
        let path = dir.file("padded.wav")
        try await AudioFixtures.paddedTone(path, lead: 1.0, seconds: 2.0, tail: 1.5)
        let reading = try ClipReader.read(try AudioDecoder(path: path, sampleRate: 44_100), budget: 29 * 44_100, trimSilence: true)
        guard case .exact(let length) = reading.extent else { Issue.record("expected an exact extent"); return }
        #expect(abs(length - Int(2.1 * 44_100)) < 60, "length \(length)")
        #expect(abs(reading.leadingTrimmed - Int(0.95 * 44_100)) < 60)
        #expect(abs((reading.trailingTrimmed ?? 0) - Int(1.45 * 44_100)) < 60)
        let untrimmed = try ClipReader.read(try AudioDecoder(path: path, sampleRate: 44_100), budget: 29 * 44_100, trimSilence: false)
        #expect(untrimmed.extent == .exact(Int(4.5 * 44_100)))
    }
}
