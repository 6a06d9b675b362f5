import Foundation
import TestSupport
import Testing
import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmCore

/// A capture device standing in for faults a file plugin cannot produce.
final class ScriptedCapture: CaptureSource {
    let sampleRate = 48_000
    let channels = 1
    var script: [Result<CaptureChunk, AudioError>]
    init(_ script: [Result<CaptureChunk, AudioError>]) { self.script = script }
    func read(frames: Int) throws -> CaptureChunk {
        guard !script.isEmpty else { throw AudioError.device(name: "usb-mic", function: "snd_pcm_readi", code: -19, message: "No such device") }
        return try script.removeFirst().get()
    }
}

private func tone(_ frames: Int, amplitude: Double = 8000) -> [Int16] {
    (0..<frames).map { Int16(amplitude * sin(Double($0) * 2 * .pi * 440 / 48_000)) }
}

@Suite("Recording takes")
struct RecordingTests {
    @Test("Through ALSA's file plugin, configured in the test: the take is the source, sample for sample; the clip matches it")
    func recordsThroughALSA() async throws {
        let f = try LibraryFixture()
        let source = f.dir.file("source.raw")
        let pcm = try await IndependentMeasure.decodedSamples(f.sample("strong.flac"), rate: 48_000)
        // Longer than the test reads: past the end of its infile the plugin repeats stale data.
        try (pcm + [Int16](repeating: 0, count: 48_000 * 4)).withUnsafeBufferPointer { Data(buffer: $0) }.write(to: URL(fileURLWithPath: source))
        let configuration = """
            pcm.nullsink { type null }
            pcm.testmic { type file slave.pcm "nullsink" file "/dev/null" infile "\(source)" format "raw" }
            """
        let capture = try AlsaCapture(device: "testmic", sampleRate: 48_000, channels: 1, configurationText: configuration)
        let writer = try TakeWriter(path: f.dir.file("take.wav"), sampleRate: 48_000, channels: 1)
        var levels = 0
        let take = TakeRecorder(source: capture, writer: writer, shouldStop: { false }, onLevel: { _, _ in levels += 1 })
            .record(.init(maxSeconds: 3))
        #expect(take.reason == .maxSeconds)
        #expect(take.frames == 3 * 48_000)
        #expect(levels == 30)
        let recorded = try await IndependentMeasure.decodedSamples(take.path)
        #expect(recorded == Array(pcm.prefix(3 * 48_000)), "the captured samples are the source's")

        let clip = try f.service.clips.add(take.path, title: "Strong")
        let stored = try await IndependentMeasure.decodedSamples("\(f.service.store.clipsDirectory)/\(clip.fileName)")
        let reference = try await IndependentMeasure.decodedSamples(take.path, rate: 44_100)
        #expect(abs(stored.count - reference.count) <= 2)
        #expect(correlation(stored, reference) > 0.999)
    }

    @Test("Overruns are recovered and counted; an unplugged device ends the take with what was captured, in a valid file")
    func faults() async throws {
        let dir = TemporaryDirectory("faults")
        let chunk = tone(4800)
        let capture = ScriptedCapture([
            .success(.samples(chunk)), .success(.overrun), .success(.samples(chunk)),
            .success(.overrun), .success(.samples(chunk)),
        ])
        let writer = try TakeWriter(path: dir.file("take.wav"), sampleRate: 48_000, channels: 1)
        let take = TakeRecorder(source: capture, writer: writer, shouldStop: { false }).record(.init())
        #expect(take.reason == .deviceFailed)
        #expect(take.failure?.contains("No such device") == true)
        #expect(take.overruns == 2)
        #expect(take.frames == 3 * 4800)
        #expect(try await IndependentMeasure.decodedSamples(take.path) == chunk + chunk + chunk)
    }

    @Test("After speech, the asked silence ends the take; silence before speech does not")
    func stopOnSilence() throws {
        let dir = TemporaryDirectory("silence")
        let quiet = [Int16](repeating: 0, count: 4800)
        let script: [Result<CaptureChunk, AudioError>] =
            Array(repeating: .success(.samples(quiet)), count: 30)  // 3 s before speaking
            + Array(repeating: .success(.samples(tone(4800))), count: 10)
            + Array(repeating: .success(.samples(quiet)), count: 40)
        let writer = try TakeWriter(path: dir.file("take.wav"), sampleRate: 48_000, channels: 1)
        let take = TakeRecorder(source: ScriptedCapture(script), writer: writer, shouldStop: { false })
            .record(.init(stopOnSilence: 1.5))
        #expect(take.reason == .silence)
        #expect(take.frames == (30 + 10 + 15) * 4800)
    }

    @Test("Levels: peak and RMS in dBFS, and clipping at full scale")
    func levels() throws {
        let dir = TemporaryDirectory("levels")
        let full = [Int16](repeating: 32767, count: 4800)
        var seen: [TakeRecorder.Level] = []
        let writer = try TakeWriter(path: dir.file("take.wav"), sampleRate: 48_000, channels: 1)
        _ = TakeRecorder(
            source: ScriptedCapture([.success(.samples(tone(4800, amplitude: 16384))), .success(.samples(full))]),
            writer: writer, shouldStop: { false }, onLevel: { level, _ in seen.append(level) }
        ).record(.init())
        #expect(abs(seen[0].peak - -6.02) < 0.05)
        #expect(abs(seen[0].rms - -9.03) < 0.1)
        #expect(!seen[0].clipping && seen[1].clipping)
    }
}
