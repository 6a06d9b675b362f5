import Foundation
import TestSupport
import Testing
import VoiceAlarmAudio

/// A small valid file made by sox or the ffmpeg CLI, and where its header ends (the bytes the
/// mutations aim at: every field a demuxer reads before the samples).
struct HeaderFixture: CustomTestStringConvertible, Sendable {
    var name: String
    var headerBytes: @Sendable (Data) -> Int
    var make: @Sendable (String) async throws -> Void
    var testDescription: String { name }

    /// The offset just past the chunk header of `chunk` ("data"), or `fallback`.
    static func past(_ chunk: String, extra: Int, fallback: Int) -> @Sendable (Data) -> Int {
        { data in data.range(of: Data(chunk.utf8)).map { $0.upperBound + extra } ?? fallback }
    }

    static let all: [HeaderFixture] = [
        HeaderFixture(name: "wav (sox, 16-bit)", headerBytes: past("data", extra: 4, fallback: 44)) {
            try await ProcessRunner.mustRun("sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", $0 + ".wav", "synth", "0.25", "sine", "440", "vol", "0.3"])
        },
        HeaderFixture(name: "wav (ffmpeg, float, stereo)", headerBytes: past("data", extra: 4, fallback: 80)) {
            try await AudioFixtures.tone($0 + ".wav", seconds: 0.25, rate: 48_000, channels: 2, codec: "pcm_f32le")
        },
        HeaderFixture(name: "caf (sox, 16-bit)", headerBytes: past("data", extra: 12, fallback: 80)) {
            try await ProcessRunner.mustRun("sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", $0 + ".caf", "synth", "0.25", "sine", "440", "vol", "0.3"])
        },
        HeaderFixture(name: "caf (ffmpeg, ima4)", headerBytes: past("data", extra: 12, fallback: 120)) {
            try await AudioFixtures.tone($0 + ".caf", seconds: 0.25, codec: "adpcm_ima_qt")
        },
    ]

    var fileExtension: String { name.hasPrefix("wav") ? "wav" : "caf" }
    /// Where the fields begin, past the magic: `RIFF….WAVE` is 12 bytes, `caff` and its version 8.
    var fieldsStart: Int { fileExtension == "wav" ? 12 : 8 }
}

/// Values a mutation writes over header fields: zero, one, the edges of each width, rates a
/// header could lie with (5 Hz, 1 MHz), and 64-bit floats as CAF stores its rate.
private let fieldValues: [[UInt8]] = {
    var values: [[UInt8]] = []
    for v: UInt32 in [0, 1, 2, 5, 7_999, 8_000, 192_000, 192_001, 1_000_000, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF] {
        values.append(withUnsafeBytes(of: v.littleEndian, Array.init))
        values.append(withUnsafeBytes(of: v.bigEndian, Array.init))
    }
    for v: UInt16 in [0, 1, 3, 33, 64, 0xFFFF, 0xFFFE] {
        values.append(withUnsafeBytes(of: v.littleEndian, Array.init))
    }
    for v: Double in [0, 5, -44_100, 1e300, .infinity, .nan, 192_000.5, 8_000] {
        values.append(withUnsafeBytes(of: v.bitPattern.bigEndian, Array.init))
    }
    return values
}()

/// One case: the fixture's bytes with its header flipped, overwritten or cut. Most mutations
/// land on the format fields just past the magic (`fieldsStart`) or on the size of the sample
/// chunk, where a lying header does harm; the rest anywhere in the header, magic included.
private func mutate(_ original: Data, header: Int, fieldsStart: Int, _ random: inout SeededGenerator) -> Data {
    var bytes = [UInt8](original)
    let reach = max(fieldsStart + 1, min(header, bytes.count))
    for _ in 0..<Int.random(in: 1...4, using: &random) {
        let at: Int
        switch Int.random(in: 0..<20, using: &random) {
        case 0..<12: at = Int.random(in: fieldsStart..<min(reach, fieldsStart + 56), using: &random)
        case 12..<17: at = Int.random(in: max(0, reach - 12)..<reach, using: &random)
        default: at = Int.random(in: 0..<reach, using: &random)
        }
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4: bytes[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
        case 4..<8:
            let value = fieldValues.randomElement(using: &random)!
            for (offset, byte) in value.enumerated() where at + offset < bytes.count { bytes[at + offset] = byte }
        case 8: bytes[at] = UInt8.random(in: 0...255, using: &random)
        default: bytes.removeLast(Int.random(in: 0..<min(bytes.count, 2 * reach), using: &random))
        }
    }
    return Data(bytes)
}

@Suite("Fuzz: mutated WAV and CAF headers decode or are refused with a typed error, quickly")
struct AudioHeaderFuzzTests {
    @Test(
        "Mutated headers per file (150; 500 in make test-full) through SoundInspector.inspect and AudioDecoder", .timeLimit(.minutes(1)),
        arguments: HeaderFixture.all)
    func headers(_ fixture: HeaderFixture) async throws {
        let dir = TemporaryDirectory("fuzz")
        let source = dir.file("source")
        try await fixture.make(source)
        let original = try Data(contentsOf: URL(fileURLWithPath: "\(source).\(fixture.fileExtension)"))
        let header = fixture.headerBytes(original)
        var random = SeededGenerator(seed: UInt64(fixture.name.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
        var decoded = 0, refused = 0, slowest = 0.0
        let path = dir.file("case.\(fixture.fileExtension)")
        for index in 0..<TestScope.count(500, quick: 150) {
            let data = mutate(original, header: header, fieldsStart: fixture.fieldsStart, &random)
            try data.write(to: URL(fileURLWithPath: path))
            let start = Date()
            do {
                let inspection = try SoundInspector.inspect(path, measureLoudness: index % 4 == 0)
                #expect(inspection.facts.sampleRate >= 8_000 && inspection.facts.sampleRate <= 192_000)
                let decoder = try AudioDecoder(path: path, sampleRate: 44_100)
                var samples = 0
                while let chunk = try decoder.read(upTo: 8_192) {
                    samples += chunk.count
                    // A mutated header must not turn a quarter-second file into an endless one.
                    #expect(samples < 44_100 * 60, "case \(index) decodes past a minute")
                    if samples >= 44_100 * 60 { break }
                }
                decoded += 1
            } catch is AudioError {
                refused += 1
            }
            slowest = max(slowest, Date().timeIntervalSince(start))
        }
        #expect(decoded > 0 && refused > 0, "\(decoded) decoded, \(refused) refused")
        // A bound for hangs, not a benchmark: sanitizer builds on a busy machine are many times slower.
        #expect(slowest < 10, "one case took \(String(format: "%.2f", slowest)) s")
    }
}
