import Foundation
import TestSupport
import Testing

/// What `picture.py` measures in a rendered SVG (librsvg, then pixels by colour).
private struct Measured: Decodable {
    var width: Int
    var height: Int
    var waveform: [Int]?
    var cap: [Double]
    var boundaries: [Double]
}

private func measure(_ svg: String) async throws -> Measured {
    let result = try await WarmPython.run("\(ProjectPaths.root)/Tests/Support/picture.py", [svg])
    guard result.status == 0 else { throw TestSupportError("picture.py failed on \(svg): \(result.stderr)") }
    return try JSONDecoder().decode(Measured.self, from: result.stdoutData)
}

/// Checks a picture against the times it should show: the first boundary is 0 s and the red
/// line the cap, which fixes the scale; the waveform must end at `duration` and every other
/// boundary sit at its time, within 2 px.
private func checkGeometry(_ picture: Measured, duration: Double, cap: Double, boundaries seconds: [Double]) throws {
    let zero = try #require(picture.boundaries.first)
    let capX = try #require(picture.cap.first)
    #expect(picture.cap.count == 1)
    let scale = (capX - zero) / cap
    let waveform = try #require(picture.waveform)
    #expect(abs(Double(waveform[0]) - zero) <= 2, "the waveform starts at 0 s")
    #expect(abs(Double(waveform[1]) - (zero + duration * scale)) <= 2, "the waveform ends at \(duration) s: \(waveform[1]) vs \(zero + duration * scale)")
    #expect(picture.boundaries.count == seconds.count, "\(picture.boundaries) for \(seconds)")
    for (x, time) in zip(picture.boundaries, seconds) {
        #expect(abs(x - (zero + time * scale)) <= 2, "a boundary at \(time) s is drawn at \(x), not \(zero + time * scale)")
    }
}

@Suite("A picture of a ringtone: SVG checked by librsvg and its pixels")
struct RingtonePictureTests {
    @Test("render --waveform draws the waveform to the ringtone's length, the cap, and each clip where the report puts it")
    func renderWaveform() async throws {
        let dir = TemporaryDirectory("picture")
        let samples = ProjectPaths.sampleAudio
        let result = try await ProcessRunner.run(
            ProjectPaths.binary,
            [
                "render", "--json", "-o", dir.file("r.wav"), "--waveform", dir.file("r.svg"),
                "\(samples)/calm.wav", "\(samples)/ready.mp3", "\(samples)/grateful.m4a",
                "\(samples)/manifesto.flac", "\(samples)/kind.ogg",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let clips = try #require(report["clips"] as? [[String: Any]])
        let used = clips.filter { $0["used"] as? Bool == true }
        #expect(used.count == 3, "the manifesto crosses the cap; kind.ogg comes after it")
        var times = used.map { $0["start"] as! Double }
        times.append(times.last! + (used.last!["duration"] as! Double))
        let duration = await Double(try IndependentMeasure.decodedSamples(dir.file("r.wav")).count) / 44_100
        try await checkGeometry(try measure(dir.file("r.svg")), duration: duration, cap: 29, boundaries: times)
        let svg = try String(contentsOfFile: dir.file("r.svg"), encoding: .utf8)
        #expect(svg.contains("manifesto.flac — crosses cap"), "a clip left out is drawn with its reason")
        #expect(svg.contains("29 s cap"))
    }

    @Test("show --svg draws a library playlist at 1200 and at 600 px; the clip titles and the caption are in it")
    func showPlaylist() async throws {
        let lib = try RingLibrary()
        let a = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/kind.ogg", "--title", "Kind & <calm>", "-q"])
        let b = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/strong.flac", "--title", "Strong", "-q"])
        _ = try await lib.ok(["playlist", "create", "morning", a, b, a, "-q"])
        for width in [1200, 600] {
            let svg = lib.dir.file("morning-\(width).svg")
            let shown = try await #require(
                try JSONSerialization.jsonObject(with: Data(lib.ok(["show", "morning", "--svg", svg, "--width", "\(width)", "--json"]).utf8)) as? [String: Any])
            let clips = try #require(shown["clips"] as? [[String: Any]])
            #expect(clips.map { $0["title"] as? String } == ["Kind & <calm>", "Strong", "Kind & <calm>"])
            var times = clips.map { $0["start"] as! Double }
            times.append(times.last! + (clips.last!["duration"] as! Double))
            let picture = try await measure(svg)
            #expect(picture.width == width)
            try checkGeometry(picture, duration: shown["duration"] as! Double, cap: 29, boundaries: times)
            let text = try String(contentsOfFile: svg, encoding: .utf8)
            #expect(text.contains("Kind &amp; &lt;"), "titles are escaped for XML (and ellipsised to fit at 600 px)")
            #expect(text.contains("LUFS") && text.contains("dBTP"))
        }
    }

    @Test("show on a target with no recording draws the default tone and says so")
    func showDefaultTone() async throws {
        let lib = try RingLibrary()
        _ = try await lib.ok(["playlist", "create", "empty", "-q"])
        let result = try await lib.run(["show", "empty", "--svg", lib.dir.file("empty.svg"), "--json"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("empty has no ringtone (no recording yet): its alarms ring with the default tone, shown here."))
        let shown = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(shown["defaultTone"] as? String == "no recording yet")
        #expect(await (try measure(lib.dir.file("empty.svg"))).waveform != nil)
    }

    @Test(
        "A picture that cannot be written, a --waveform that is not .svg, an unknown target: one error line, nothing written",
        arguments: [
            (["show", "morning", "--svg", "/proc/voicealarm/m.svg"], Int32(1), "error: /proc/voicealarm/m.svg: "),
            (["show", "nosuch", "--svg", "$DIR/n.svg"], 1, "error: nosuch: no playlist, clip or alarm"),
            (["show", "morning", "--svg", ""], 64, "error: --svg needs a file name"),
            (["show", "morning", "--width", "100"], 64, "error: --width: 100 is out of range"),
            (["render", "-o", "$DIR/r.wav", "--waveform", "$DIR/r.png", "$SAMPLES/calm.wav"], 64, "error: --waveform: '"),
            (["render", "-o", "$DIR/r.wav", "--waveform", "/proc/voicealarm/r.svg", "$SAMPLES/calm.wav"], 1, "error: /proc/voicealarm/r.svg: "),
        ])
    func badInput(_ arguments: [String], _ status: Int32, _ message: String) async throws {
        let lib = try RingLibrary()
        let clip = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        _ = try await lib.ok(["playlist", "create", "morning", clip, "-q"])
        let filled = arguments.map {
            $0.replacingOccurrences(of: "$DIR", with: lib.dir.path).replacingOccurrences(of: "$SAMPLES", with: ProjectPaths.sampleAudio)
        }
        let result = try await lib.run(filled)
        #expect(result.status == status)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").first?.hasPrefix("error:") == true)
        let left = try FileManager.default.contentsOfDirectory(atPath: lib.dir.path).filter {
            $0.hasSuffix(".svg") || $0.hasSuffix(".wav") || $0.hasSuffix(".png")
        }
        #expect(left.isEmpty, "\(left)")
    }

    @Test("On a terminal show prints a line of blocks under the summary, with │ where a clip starts")
    func terminalBlocks() async throws {
        let lib = try RingLibrary()
        let a = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        let b = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/ready.mp3", "-q"])
        _ = try await lib.ok(["playlist", "create", "morning", a, b, "-q"])
        let shell = "stty cols 80; \(ProjectPaths.binary) --data-dir \(lib.dataDir) show morning -q"
        let terminal = try await ProcessRunner.run("/usr/bin/script", ["-qec", shell, "/dev/null"], environment: lib.devices.environment)
        let lines = terminal.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n")
        let blocks = try #require(lines.last)
        #expect(blocks.count == 80)
        #expect(blocks.filter { $0 == "│" }.count == 1)
        #expect(blocks.contains("█") || blocks.contains("▇"))
        let piped = try await lib.ok(["show", "morning"])
        #expect(!piped.contains("│"), "no blocks when stdout is not a terminal")
        #expect(piped.split(separator: "\n").count == 3, "the caption and a line per clip")
    }
}
