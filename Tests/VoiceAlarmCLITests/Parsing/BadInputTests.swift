import Foundation
import TestSupport
import Testing

/// Runs the real binary.
func voicealarm(_ arguments: [String]) async throws -> ProcessResult {
    guard FileManager.default.isExecutableFile(atPath: ProjectPaths.binary) else {
        throw TestSupportError("no binary at \(ProjectPaths.binary): run 'make test', which builds it first")
    }
    return try await ProcessRunner.run(ProjectPaths.binary, arguments)
}

/// Runs the binary under `timeout`, so a command that would hang ends (status 124) instead of
/// holding the test run; returns what it did and how long it took.
/// Runs the binary for at most `seconds`: its result, the wall time it took and the CPU time it
/// used (GNU time's user + system). "Refused at once" is judged on CPU time, which a busy
/// machine does not stretch; wall time only where waiting is the fault (a FIFO).
func boundedRun(_ arguments: [String], seconds: Int = 30) async throws -> (result: ProcessResult, elapsed: Double, cpu: Double) {
    let times = NSTemporaryDirectory() + "voicealarm-time-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: times) }
    let start = Date()
    let result = try await ProcessRunner.run("timeout", [String(seconds), "/usr/bin/time", "-q", "-o", times, "-f", "%U %S", ProjectPaths.binary] + arguments)
    let elapsed = Date().timeIntervalSince(start)
    let last = ((try? String(contentsOfFile: times, encoding: .utf8)) ?? "").split(separator: "\n").last ?? ""
    let cpu = last.split(separator: " ").compactMap { Double($0) }.reduce(0, +)
    return (result, elapsed, last.isEmpty ? elapsed : cpu)
}

/// The bad inputs of the audio engine, each made by a tool other than VoiceAlarm.
enum BadInput: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case missing, directory, text, image, randomBytes, emptyFile, truncatedM4A, truncatedFLAC, truncatedMP3
    case cutMidSampleWAV, corruptM4A, videoOnly, zeroSamples, silent

    var testDescription: String { rawValue }

    /// Creates the input in `dir`; returns its path and a word the error must contain.
    func make(in dir: TemporaryDirectory) async throws -> (path: String, reason: String) {
        let path = dir.file("input-\(rawValue)")
        func tone(_ ext: String, codec: String? = nil) async throws -> String {
            let full = dir.file("full-\(rawValue).\(ext)")
            try await AudioFixtures.tone(full, seconds: 10, codec: codec, extra: ext == "m4a" ? ["-movflags", "+faststart"] : [])
            return full
        }
        switch self {
        case .missing: return (dir.file("nope.wav"), "no such file")
        case .directory:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return (path, "is a directory")
        case .text:
            try Data("I am calm. I am ready.\n".utf8).write(to: URL(fileURLWithPath: path + ".txt"))
            return (path + ".txt", "not an audio file")
        case .image:
            try await ProcessRunner.mustRun("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=red:s=64x64", "-frames:v", "1", path + ".png"])
            return (path + ".png", "no audio stream")
        case .randomBytes:
            // Seeded: unseeded bytes now and then look like a container to FFmpeg's probe ("contains
            // no audio stream", a fresh-clone run), and a test's input must be the same every run.
            var generator = SeededGenerator(seed: 2026_12_02)
            try Data((0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: path))
            return (path, "not an audio file")
        case .emptyFile:
            _ = FileManager.default.createFile(atPath: path + ".wav", contents: Data())
            return (path + ".wav", "empty file")
        case .truncatedM4A:
            try await AudioFixtures.truncatedCopy(of: try tone("m4a", codec: "aac"), to: path + ".m4a")
            return (path + ".m4a", "truncated")
        case .truncatedFLAC:
            try await AudioFixtures.truncatedCopy(of: try tone("flac"), to: path + ".flac")
            return (path + ".flac", "truncated")
        case .truncatedMP3:
            try await AudioFixtures.truncatedCopy(of: try tone("mp3", codec: "libmp3lame"), to: path + ".mp3")
            return (path + ".mp3", "truncated")
        case .cutMidSampleWAV:
            // sox writes a 44-byte header; 10 s of 16-bit mono is 882,000 bytes of samples.
            // Cutting after an odd number of them leaves the last sample half there.
            let full = dir.file("full.wav")
            try await ProcessRunner.mustRun("sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", full, "synth", "10", "sine", "440", "vol", "0.3"])
            let data = try Data(contentsOf: URL(fileURLWithPath: full))
            #expect(data.count == 44 + 882_000)
            try data.prefix(44 + 441_001).write(to: URL(fileURLWithPath: path + ".wav"))
            return (path + ".wav", "truncated")
        case .corruptM4A:
            try await AudioFixtures.corruptedCopy(of: try tone("m4a", codec: "aac"), to: path + ".m4a")
            return (path + ".m4a", "corrupt audio at")
        case .videoOnly:
            try await ProcessRunner.mustRun("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=blue:s=64x64:d=2", "-c:v", "ffv1", path + ".mkv"])
            return (path + ".mkv", "no audio stream")
        case .zeroSamples:
            try await ProcessRunner.mustRun("sox", ["-n", "-r", "44100", "-c", "1", path + ".wav", "trim", "0", "0"])
            return (path + ".wav", "no audio samples")
        case .silent:
            try await AudioFixtures.silence(path + ".wav", seconds: 3)
            return (path + ".wav", "silent")
        }
    }
}

@Suite("Bad input gets one clear line, exit 1, and loses nothing")
struct BadInputTests {
    @Test("render refuses it and leaves an existing output untouched", arguments: BadInput.allCases)
    func render(_ input: BadInput) async throws {
        let dir = TemporaryDirectory("bad")
        let (path, reason) = try await input.make(in: dir)
        let good = "\(ProjectPaths.sampleAudio)/calm.wav"
        for existing in [false, true] {
            let out = dir.file(existing ? "existing.m4a" : "new.m4a")
            if existing { try Data("the previous ringtone".utf8).write(to: URL(fileURLWithPath: out)) }
            let before = Set(dir.contents())
            let result = try await voicealarm(["render", "-o", out, good, path])
            #expect(result.status == 1)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "stderr: \(result.stderr)")
            #expect(lines.first?.hasPrefix("error: \(path): ") == true, "stderr: \(result.stderr)")
            #expect(result.stderr.contains(reason), "stderr: \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(Set(dir.contents()) == before, "nothing created, no temporary left")
            if existing {
                #expect(try String(contentsOfFile: out, encoding: .utf8) == "the previous ringtone")
            }
        }
    }

    @Test("check says why it is not a shippable sound, exit 1", arguments: BadInput.allCases)
    func check(_ input: BadInput) async throws {
        let dir = TemporaryDirectory("badcheck")
        let (path, _) = try await input.make(in: dir)
        let result = try await voicealarm(["check", "--json", path])
        #expect(result.status == 1)
        let verdict = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
        #expect(verdict?["shippable"] as? Bool == false)
        #expect((verdict?["problems"] as? [String])?.isEmpty == false)
        #expect(result.stderr.hasPrefix("error: \(path): "))
    }

    @Test("An output in a missing or unwritable folder is refused before any work")
    func unwritableOutput() async throws {
        let dir = TemporaryDirectory("unwritable")
        let good = "\(ProjectPaths.sampleAudio)/calm.wav"
        let missing = try await voicealarm(["render", "-o", dir.file("no/such/folder/x.m4a"), good])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("does not exist"))
        let folder = dir.file("folder.m4a")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let isDirectory = try await voicealarm(["render", "-o", folder, good])
        #expect(isDirectory.status == 1)
        #expect(isDirectory.stderr.contains("is a directory"))
    }
}

@Suite("A malformed command line is a usage error: exit 64 and a pointer to help")
struct UsageErrorTests {
    @Test(
        "Each mistake names itself",
        arguments: [
            (["render", "--format", "ogg2", "-o", "x.m4a", "a.wav"], "unknown format 'ogg2'"),
            (["render", "--cap", "30", "-o", "x.m4a", "a.wav"], "--cap: 30 must be more than 0 and less than 30"),
            (["render", "--cap", "0", "-o", "x.m4a", "a.wav"], "--cap: 0 must be more than 0"),
            (["render", "--cap", "abc", "-o", "x.m4a", "a.wav"], "'abc' is not a number"),
            (["render", "--cap", "0.01", "-o", "x.m4a", "a.wav"], "--cap: cap must hold at least one aac frame: 0.024 s or more"),
            (["render", "--cap", "0.00001", "-o", "x.m4a", "a.wav"], "--cap: cap must hold at least one aac frame"),
            (["batch", "m.json", "--out", "o", "--cap", "0.001", "--format", "caf", "--codec", "ima4"], "--cap: cap must hold at least one ima4 frame"),
            (["render", "--gap", "2", "-o", "x.m4a", "a.wav"], "--gap: 2 is out of range"),
            (["render", "--target-lufs", "0", "-o", "x.m4a", "a.wav"], "--target-lufs: 0 is out of range"),
            (["render", "--format", "caf", "-o", "x.m4a", "a.wav"], "--format caf contradicts the output's extension .m4a"),
            (["render", "--codec", "ima4", "-o", "x.m4a", "a.wav"], "m4a cannot carry ima4"),
            (["render", "--codec", "flac", "-o", "x.caf", "a.wav"], "unknown codec 'flac'"),
            (["render", "-o", "ringtone", "a.wav"], "needs an extension"),
            (["render", "-o", "x.ogg", "a.wav"], "cannot write .ogg"),
            (["render", "a.wav"], "missing -o OUT"),
            (["render", "-o", "x.m4a"], "missing -o OUT IN..."),
            (["render", "-o"], "--output needs a value"),
            (["render", "--bogus", "-o", "x.m4a", "a.wav"], "unknown option '--bogus'"),
            (["render", "--no-normalize=yes", "-o", "x.m4a", "a.wav"], "takes no value"),
            (["frobnicate"], "unknown command 'frobnicate'"),
            (["check"], "missing FILE"),
            (["check", "a.wav", "b.wav"], "unexpected argument 'b.wav'"),
            (["clip"], "missing clip command (import, say, replace, rename, list, remove, record)"),
            (["clip", "frob"], "unknown clip command 'frob'"),
            (["playlist", "move", "morning", "1"], "missing NAME FROM TO"),
            (["render", "--cap", "20", "--cap", "25", "-o", "x.m4a", "a.wav"], "--cap given twice ('20' and '25'): give it once"),
            (["render", "-o", "x.m4a", "-o", "y.m4a", "a.wav"], "--output given twice"),
            (["--scheduler", "embedded", "alarm", "list", "--scheduler", "systemd"], "--scheduler given twice ('embedded' and 'systemd')"),
        ])
    func usage(_ arguments: [String], _ message: String) async throws {
        let dir = TemporaryDirectory("usage")
        let result = try await voicealarm(arguments.map { $0.hasSuffix(".m4a") || $0 == "ringtone" ? dir.file($0) : $0 })
        #expect(result.status == 64)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "stderr: \(result.stderr)")
        #expect(lines.first?.hasPrefix("error: ") == true)
        #expect(lines.first?.contains(message) == true, "stderr: \(result.stderr)")
        #expect(lines.last?.hasPrefix("see 'voicealarm ") == true)
        #expect(result.stdout.isEmpty)
        #expect(dir.contents().isEmpty)
    }

    @Test(
        "Arguments and options are refused before the library opens: no data dir is made",
        arguments: [
            (["playlist", "move", "morning", "one", "2"], "FROM: 'one' is not a whole number"),
            (["playlist", "remove", "morning", "2nd"], "POSITION: '2nd' is not a whole number"),
            (["clip", "import", "a.wav", "--title", "a\u{7}b"], "--title"),
            (["clip", "say", "..."], "TEXT: "),
            (["serve", "--cert", "c.pem"], "--cert and --key go together"),
            (["service", "install", "--https"], "--https goes with --web"),
            (["daemon", "--poll-seconds", "0"], "--poll-seconds"),
        ])
    func beforeTheLibrary(_ arguments: [String], _ message: String) async throws {
        let dir = TemporaryDirectory("usage")
        let result = try await voicealarm(["--data-dir", dir.file("data")] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("error: ") && result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(dir.contents().isEmpty, "the library was opened: \(dir.contents())")
    }

    @Test("No command at all prints the help on stderr, exit 64")
    func noCommand() async throws {
        let result = try await voicealarm([])
        #expect(result.status == 64)
        #expect(result.stderr.contains("usage: voicealarm <command>"))
        #expect(result.stdout.isEmpty)
    }
}
