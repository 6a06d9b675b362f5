import Foundation
import TestSupport
import Testing

@testable import VoiceAlarmAudio

/// A sox-made 16-bit WAV whose header's rate (bytes 24–27) and channel count (22–23) are overwritten.
private func patchedWAV(_ path: String, rate: UInt32? = nil, channels: UInt16? = nil) async throws {
    try await ProcessRunner.mustRun("sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", path, "synth", "1", "sine", "440", "vol", "0.3"])
    var data = try Data(contentsOf: URL(fileURLWithPath: path))
    if let rate { data.replaceSubrange(24..<28, with: withUnsafeBytes(of: rate.littleEndian, Array.init)) }
    if let channels { data.replaceSubrange(22..<24, with: withUnsafeBytes(of: channels.littleEndian, Array.init)) }
    try data.write(to: URL(fileURLWithPath: path))
}

@Suite("Inputs are refused from their header, before decoding, and never read without bound")
struct InputBoundsTests {
    @Test(
        "Rates outside 8–192 kHz and absurd channel counts are refused when the decoder opens",
        arguments: [
            (UInt32(5), UInt16?.none, "sample rate 5 Hz is outside 8000–192000 Hz"),
            (UInt32(7_999), nil, "sample rate 7999 Hz is outside 8000–192000 Hz"),
            (UInt32(192_001), nil, "sample rate 192001 Hz is outside 8000–192000 Hz"),
            (UInt32(44_100), UInt16(33), "33 channels; at most 32 are supported"),
        ] as [(UInt32, UInt16?, String)])
    func refusedFromHeader(_ rate: UInt32, _ channels: UInt16?, _ reason: String) async throws {
        let dir = TemporaryDirectory("bounds")
        let path = dir.file("patched.wav")
        try await patchedWAV(path, rate: rate, channels: channels)
        #expect(throws: AudioError.unsupportedStream(path: path, reason: reason)) { try AudioDecoder(path: path, sampleRate: 44_100) }
        #expect(throws: AudioError.unsupportedStream(path: path, reason: reason)) { try SoundInspector.inspect(path) }
    }

    @Test("The edges of the range decode", arguments: [8_000, 192_000])
    func edgesDecode(_ rate: Int) async throws {
        let dir = TemporaryDirectory("bounds")
        let path = dir.file("edge.wav")
        try await AudioFixtures.tone(path, seconds: 0.5, rate: rate)
        #expect(try AudioDecoder(path: path, sampleRate: 44_100).readAll().count > 20_000)
    }

    @Test(
        "A FIFO, a device and a socket are refused by stat alone: nothing opens them (opening a FIFO blocks)",
        .timeLimit(.minutes(1)))
    func specialFiles() async throws {
        let dir = TemporaryDirectory("special")
        let fifo = dir.file("pipe.wav")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: AudioError.notRegularFile(path: fifo, kind: "a FIFO")) { try AudioDecoder(path: fifo, sampleRate: nil) }
        #expect(throws: AudioError.notRegularFile(path: fifo, kind: "a FIFO")) { try ContentHash.sha256(file: fifo) }
        #expect(throws: AudioError.notRegularFile(path: "/dev/zero", kind: "a character device")) { try AudioDecoder.checkReadableFile("/dev/zero") }
        #expect(throws: AudioError.notRegularFile(path: "/dev/zero", kind: "a character device")) { try ContentHash.sha256(file: "/dev/zero") }
        let socket = dir.file("socket.wav")
        try await ProcessRunner.mustRun("python3", ["-c", "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", socket])
        #expect(throws: AudioError.notRegularFile(path: socket, kind: "a socket")) { try AudioDecoder(path: socket, sampleRate: nil) }
        let link = dir.file("link.wav")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: fifo)
        #expect(throws: AudioError.notRegularFile(path: link, kind: "a FIFO")) { try AudioDecoder.checkReadableFile(link) }
    }

    @Test("An import without a declared length stops as soon as decoding passes the longest recording", .timeLimit(.minutes(1)))
    func importStopsWhileDecoding() async throws {
        let dir = TemporaryDirectory("longest")
        let path = dir.file("no-length.mp3")
        // An MP3 without its Xing header: FFmpeg only estimates its length from the bit rate, which is no declaration.
        try await AudioFixtures.tone(path, seconds: 8, codec: "libmp3lame", extra: ["-write_xing", "0"])
        #expect(try AudioDecoder(path: path, sampleRate: 44_100).declaredDuration == nil)
        try FileManager.default.createDirectory(atPath: dir.file("clips"), withIntermediateDirectories: true)
        #expect(throws: AudioError.tooLong(path: path, limit: 5, declared: nil)) {
            try ClipArchive.store(path, into: dir.file("clips"), name: "x", longest: 5)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("clips")).isEmpty, "no temporary file left")
        #expect(try ClipArchive.store(path, into: dir.file("clips"), name: "y", longest: 8).frames > 7 * 44_100)
    }
}
