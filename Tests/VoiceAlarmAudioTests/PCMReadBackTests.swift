import Foundation
import TestSupport
import Testing
import VoiceAlarmCore

@testable import VoiceAlarmAudio

/// Samples with every kind of value a 16-bit file rounds: speech-like noise, a sine, full scale
/// and past it, ties between two 16-bit steps.
private func awkwardSamples() -> [Float] {
    var generator = SeededGenerator(seed: 11)
    var samples = (0..<20_000).map { _ in Float.random(in: -0.7...0.7, using: &generator) }
    samples += [.nan, 3, -3]
    samples += (0..<4_410).map { Float(0.9 * sin(2 * Double.pi * 440 * Double($0) / 44_100)) }
    samples += [1, -1, 1.5, -1.5, 0.5 / 32_768, 1.5 / 32_768, -0.5 / 32_768, 2.5 / 32_768]
    return samples
}

@Suite("16-bit PCM ringtones are read back, not measured again")
struct PCMReadBackTests {
    @Test(
        "The file reads back to the digest of the samples the encoder was given, which ffmpeg reads too",
        arguments: [RingtoneFormat.wav, .caf, .aiff])
    func readsBackExactly(_ format: RingtoneFormat) async throws {
        let dir = TemporaryDirectory("readback")
        let path = dir.file("tone.\(format.fileExtension)")
        let samples = awkwardSamples()
        let written = try PCMDigest()
        var given: [Int16] = []
        let writer = try RingtoneEncoder(settings: RenderSettings(format: format)).open(path)
        writer.onSixteenBit = { values in
            given += values
            written.add(values)
        }
        try writer.append(samples)
        try writer.finish()
        let read = try SoundInspector.readBack(path)
        #expect(read.count == samples.count && given.count == samples.count)
        #expect(read.digest == written.finish())
        #expect(read.facts.codec.hasPrefix("pcm_s16") && read.facts.sampleRate == 44_100 && read.facts.channels == 1)
        // An independent decoder finds the 16-bit values the encoder was given.
        #expect(try await IndependentMeasure.decodedSamples(path) == given)
    }

    @Test("One sample changed in the file changes what it reads back as", arguments: [RingtoneFormat.wav, .caf, .aiff])
    func catchesOneChangedSample(_ format: RingtoneFormat) throws {
        let dir = TemporaryDirectory("readback-damaged")
        let path = dir.file("tone.\(format.fileExtension)")
        let samples = awkwardSamples()
        try RingtoneEncoder(settings: RenderSettings(format: format)).write(samples, to: path)
        let before = try SoundInspector.readBack(path)
        // The sample 4,410 from the end sits well inside the audio data of every container.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let offset = bytes.count - 2 * 4_410
        bytes[offset] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: path))
        let after = try SoundInspector.readBack(path)
        #expect(after.count == before.count)
        #expect(after.digest != before.digest)
    }
}
