import Foundation
import TestSupport
import Testing

/// Test data: a valid recording made by sox, then its header's sample rate overwritten, as a
/// damaged or hostile file would have it.
enum LyingHeader {
    /// A 2-second 44.1 kHz tone whose header claims `rate` Hz (`ext`: wav or caf).
    static func make(_ path: String, ext: String, rate: Int) async throws {
        try await ProcessRunner.mustRun("sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", path, "synth", "2", "sine", "440", "vol", "0.3"])
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        if ext == "wav" {
            // fmt chunk: sample rate at byte 24, byte rate at 28 (little-endian).
            data.replaceSubrange(24..<28, with: withUnsafeBytes(of: UInt32(rate).littleEndian, Array.init))
            data.replaceSubrange(28..<32, with: withUnsafeBytes(of: UInt32(rate * 2).littleEndian, Array.init))
        } else {
            // desc chunk: its 12-byte chunk header, then the rate as a big-endian Float64.
            let desc = data.range(of: Data("desc".utf8))!.lowerBound + 12
            data.replaceSubrange(desc..<desc + 8, with: withUnsafeBytes(of: Double(rate).bitPattern.bigEndian, Array.init))
        }
        try data.write(to: URL(fileURLWithPath: path))
    }
}

/// A clip path that is no recording: a named pipe nobody writes to, or a device that never ends.
enum SpecialInput: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case fifo, devZero

    var testDescription: String { self == .fifo ? "a FIFO" : "/dev/zero" }

    func make(in dir: TemporaryDirectory) throws -> (path: String, kind: String) {
        switch self {
        case .fifo:
            let path = dir.file("pipe.wav")
            guard mkfifo(path, 0o600) == 0 else { throw TestSupportError("mkfifo \(path) failed") }
            return (path, "a FIFO")
        case .devZero: return ("/dev/zero", "a character device")
        }
    }
}

@Suite("Inputs are bounded before any work: special files, lying headers, overlong recordings")
struct BoundedInputTests {
    @Test(
        "A FIFO or /dev/zero as a clip ends at once: one error line, exit 1, nothing half-written",
        .timeLimit(.minutes(1)), arguments: SpecialInput.allCases, ["render", "batch", "clip import"])
    func specialFiles(_ input: SpecialInput, _ command: String) async throws {
        let dir = TemporaryDirectory("special")
        let (path, kind) = try input.make(in: dir)
        let data = dir.file("data"), out = dir.file("out")
        let arguments: [String]
        switch command {
        case "render": arguments = ["render", "-o", dir.file("x.m4a"), "\(ProjectPaths.sampleAudio)/calm.wav", path]
        case "batch":
            let manifest = dir.file("m.json")
            try #"{"ringtones": [{"id": "morning", "clips": ["\#(path)"]}]}"#.write(toFile: manifest, atomically: true, encoding: .utf8)
            arguments = ["batch", "-q", manifest, "--out", out]
        default: arguments = ["--data-dir", data, "clip", "import", path]
        }
        let before = Set(dir.contents())
        let (result, elapsed, _) = try await boundedRun(arguments)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(elapsed < 10, "took \(elapsed) s")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(result.stderr)")
        #expect(lines.first?.hasPrefix("error: ") == true)
        #expect(result.stderr.contains("\(path): not a regular file (\(kind))"), "stderr: \(result.stderr)")
        switch command {
        case "render": #expect(Set(dir.contents()) == before, "no output, no temporary file")
        case "batch":
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []) == [".voicealarm-batch.d"])
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: "\(out)/.voicealarm-batch.d")) ?? []) == ["shard-1-of-1.json"])
        default: #expect(((try? FileManager.default.contentsOfDirectory(atPath: "\(data)/clips")) ?? []).isEmpty)
        }
    }

    @Test(
        "A WAV or CAF whose header claims 5 Hz is refused at once by clip import, render and check",
        .timeLimit(.minutes(1)), arguments: ["wav", "caf"], ["clip import", "render", "check"])
    func lyingSampleRate(_ ext: String, _ command: String) async throws {
        let dir = TemporaryDirectory("lying")
        let path = dir.file("five-hertz.\(ext)")
        try await LyingHeader.make(path, ext: ext, rate: 5)
        let data = dir.file("data")
        let arguments =
            switch command {
            case "render": ["render", "-o", dir.file("x.m4a"), path]
            case "check": ["check", path]
            default: ["--data-dir", data, "clip", "import", path]
            }
        let (result, _, cpu) = try await boundedRun(arguments)
        #expect(result.status == 1)
        #expect(cpu < 5, "used \(cpu) s of CPU (an unbounded import ran for minutes)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(result.stderr)")
        #expect(lines.first?.hasPrefix("error: \(path): ") == true)
        #expect(result.stderr.contains("sample rate 5 Hz is outside 8000–192000 Hz"), "stderr: \(result.stderr)")
        if command == "clip import" {
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: "\(data)/clips")) ?? []).isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("x.m4a")))
    }

    @Test(
        "clip import refuses a recording declared longer than 10 minutes before decoding it; render reads only the cap of it",
        .timeLimit(.minutes(1)))
    func overlongImport() async throws {
        let dir = TemporaryDirectory("overlong")
        let path = dir.file("eleven-minutes.wav")
        try await ProcessRunner.mustRun("sox", ["-n", "-r", "8000", "-c", "1", "-b", "16", path, "synth", "660", "sine", "440", "vol", "0.3"])
        let (refused, _, cpu) = try await boundedRun(["--data-dir", dir.file("data"), "clip", "import", path])
        #expect(refused.status == 1)
        #expect(cpu < 5, "used \(cpu) s of CPU")
        #expect(refused.stderr == "error: \(path): the header declares 660.00 s; a recording may last at most 10 minutes\n")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir.file("data/clips"))) ?? []).isEmpty)

        let rendered = try await voicealarm(["render", "-q", "-o", dir.file("x.m4a"), path])
        #expect(rendered.status == 0, "\(rendered.stderr)")
    }

    @Test("clip import --help states the longest recording")
    func helpSaysLimit() async throws {
        let help = try await voicealarm(["clip", "import", "--help"])
        #expect(help.stdout.contains("at most 10 minutes"))
    }
}
