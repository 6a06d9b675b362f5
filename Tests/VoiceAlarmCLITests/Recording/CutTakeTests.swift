import Foundation
import TestSupport
import Testing

/// A browser's recording cut in the middle of its last frame, as WebKit's fragmented MP4/AAC
/// and Chromium's WebM/Opus leave it when recording stops mid-write: ffmpeg makes it from speech
/// over a tone (espeak-ng), Python cuts it, ffprobe measures what the library stored.
enum CutTake: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// Fragmented MP4 as WebKit's MediaRecorder writes it (`empty_moov`, a fragment per frame).
    case webkitMP4
    /// WebM/Opus as Chromium's MediaRecorder writes it (a live stream: no cues, no duration).
    case chromiumWebM

    var testDescription: String { rawValue }

    /// The whole recording and the same cut mid-frame, in `dir`; the length of the frame cut.
    func make(in dir: TemporaryDirectory) async throws -> (whole: String, cut: String, frame: Double) {
        let speech = dir.file("speech.wav")
        try await ProcessRunner.mustRun("espeak-ng", ["-w", speech, "Good morning. I am calm, and I am ready for today."])
        let ext = self == .webkitMP4 ? "mp4" : "webm"
        let whole = dir.file("whole-\(rawValue).\(ext)")
        let encoding =
            self == .webkitMP4
            ? ["-c:a", "aac", "-b:a", "128k", "-movflags", "+frag_every_frame+empty_moov+default_base_moof"]
            : ["-c:a", "libopus", "-b:a", "64k", "-live", "1"]
        // A tone under the speech, as a phone's microphone hears a room: the last frame holds sound.
        try await ProcessRunner.mustRun(
            "ffmpeg",
            [
                "-v", "error", "-y", "-i", speech, "-f", "lavfi", "-i", "sine=f=220:d=10",
                "-filter_complex", "[0]aresample=48000[a];[1]volume=0.1,aresample=48000[b];[a][b]amix=inputs=2:duration=first",
                "-ar", "48000", "-ac", "1",
            ] + encoding + [whole])
        let cut = dir.file("cut-\(rawValue).\(ext)")
        let frame = try await AudioFixtures.cutMidFrame(whole, to: cut)
        return (whole, cut, frame > 0 ? frame : 0.02)
    }

    /// Seconds of audio in a stored clip, by ffprobe.
    static func duration(_ path: String) async throws -> Double {
        let probe = try await ProcessRunner.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
        return try #require(Double(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "ffprobe: \(probe.stderr)")
    }
}

@Suite("A take cut in the middle of a frame is kept up to its last whole frame")
struct CutTakeTests {
    @Test("clip import refuses the cut file naming --salvage; --salvage keeps it, saying what was cut", arguments: CutTake.allCases)
    func importAndSalvage(_ take: CutTake) async throws {
        let dir = TemporaryDirectory("cut-import")
        let data = dir.file("data")
        let (whole, cut, frame) = try await take.make(in: dir)

        let refused = try await voicealarm(["--data-dir", data, "clip", "import", cut])
        #expect(refused.status == 1)
        let lines = refused.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("error: \(cut): "), "\(refused.stderr)")
        #expect(refused.stderr.contains("middle of a frame") && refused.stderr.contains("--salvage"), "\(refused.stderr)")
        let none = try await voicealarm(["--data-dir", data, "--json", "clip", "list"])
        #expect((try JSONSerialization.jsonObject(with: none.stdoutData) as? [Any])?.isEmpty == true, "nothing imported")

        let kept = try await voicealarm(["--data-dir", data, "--json", "clip", "import", cut, "--salvage"])
        #expect(kept.status == 0, "\(kept.stderr)")
        let clip = try #require(try JSONSerialization.jsonObject(with: kept.stdoutData) as? [String: Any])
        let cutOff = try #require(clip["cutOff"] as? [String: Any], "\(kept.stdout)")
        #expect(cutOff["cause"] as? String == "partialFrame")
        let seconds = try #require(cutOff["seconds"] as? Double)
        #expect(abs(seconds - frame) < 0.002, "the frame cut: \(seconds) s, ffprobe: \(frame) s")
        #expect((cutOff["note"] as? String)?.hasPrefix("the last 0.02 s were cut off") == true, "\(cutOff)")
        #expect(kept.stderr.contains("warning: \(cut): the last 0.02 s were cut off"), "\(kept.stderr)")

        // Measured by ffprobe on the stored copies: the cut one is the whole one less one frame.
        let imported = try await voicealarm(["--data-dir", data, "--json", "clip", "import", whole])
        let wholeClip = try #require(try JSONSerialization.jsonObject(with: imported.stdoutData) as? [String: Any])
        #expect((wholeClip["cutOff"] as? NSNull) != nil, "a whole file says nothing was cut: \(imported.stdout)")
        let keptSeconds = try await CutTake.duration(try #require(clip["path"] as? String))
        let wholeSeconds = try await CutTake.duration(try #require(wholeClip["path"] as? String))
        #expect(wholeSeconds - keptSeconds > 0 && wholeSeconds - keptSeconds <= frame + 0.001, "stored \(keptSeconds) s of \(wholeSeconds) s")
        #expect(abs((cutOff["kept"] as? Double ?? 0) - keptSeconds) < 0.001)
    }

    @Test("Uploaded to a real server, the cut take becomes a clip with the cut said", .timeLimit(.minutes(1)))
    func upload() async throws {
        let dir = TemporaryDirectory("cut-upload")
        let data = dir.file("data")
        let server = try await ServeProcess(dataDir: data)
        let browser = try await server.pairBrowser()
        for take in CutTake.allCases {
            let (whole, cut, frame) = try await take.make(in: dir)
            let type = take == .webkitMP4 ? "audio/mp4" : "audio/webm;codecs=opus"
            let answer = try await server.curl(
                "POST", "/api/clips?title=\(take.rawValue)", browser.curl + ["-H", "Content-Type: \(type)", "--data-binary", "@\(cut)"])
            #expect(answer.status == 201, "\(take): \(answer.status) \(answer.body)")
            let clip = try #require(answer.json as? [String: Any])
            let cutOff = try #require(clip["cutOff"] as? [String: Any], "\(answer.body)")
            #expect(abs((cutOff["seconds"] as? Double ?? 0) - frame) < 0.002 && cutOff["cause"] as? String == "partialFrame", "\(cutOff)")
            // The whole take uploaded the same way is kept with nothing said; by ffprobe on the
            // stored copies, the cut one is the whole one less the frame cut.
            let full = try await server.curl("POST", "/api/clips", browser.curl + ["-H", "Content-Type: \(type)", "--data-binary", "@\(whole)"])
            let fullClip = try #require(full.json as? [String: Any], "\(full.body)")
            #expect(full.status == 201 && (fullClip["cutOff"] as? NSNull) != nil, "\(full.body)")
            let stored = try await CutTake.duration(try #require(clip["path"] as? String))
            let wholeSeconds = try await CutTake.duration(try #require(fullClip["path"] as? String))
            #expect(stored < wholeSeconds && wholeSeconds - stored <= frame + 0.001, "\(take): stored \(stored) s of \(wholeSeconds) s")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(data)/uploads").isEmpty, "no upload left behind")
        _ = await server.stop()
    }
}
