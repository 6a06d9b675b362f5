import Foundation
import TestSupport
import Testing

/// Sound outside what people hear from a bedside speaker, made by ffmpeg, measured by libavfilter's
/// `astats` on its own (the band's RMS against the whole), and refused by the real binary and server.
enum InaudibleTone: Double, CaseIterable, CustomTestStringConvertible, Sendable {
    case ultrasonic = 18_500
    case infrasonic = 25

    var testDescription: String { "\(Int(rawValue)) Hz" }

    /// Five seconds of the tone at −12 dBFS, 44.1 kHz, in `dir`: loud to the K-weighted meter.
    func make(in dir: TemporaryDirectory) async throws -> String {
        let path = dir.file("tone-\(Int(rawValue)).wav")
        try await AudioFixtures.tone(path, seconds: 5, frequency: rawValue, level: -12)
        return path
    }

    /// The speech band's power against the whole's (dB), by ffmpeg's `astats` after the same
    /// DC blocker and band filters the product uses: an independent reading of what it decides on.
    static func bandShare(_ path: String) async throws -> Double {
        func rms(_ filters: String) async throws -> Double {
            let result = try await ProcessRunner.run(
                "ffmpeg",
                ["-nostats", "-i", path, "-ac", "1", "-af", filters + "astats=measure_perchannel=none:measure_overall=RMS_level", "-f", "null", "-"])
            let line = try #require(result.stderr.split(separator: "\n").last { $0.contains("RMS level dB:") }, "\(result.stderr.suffix(300))")
            return Double(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) ?? -.infinity
        }
        let band = "highpass=f=200:poles=2,highpass=f=200:poles=2,lowpass=f=5000:poles=2,lowpass=f=5000:poles=2,"
        // As the product measures: after its DC blocker (a cheap microphone's offset is no sound).
        let dc = "highpass=f=20:poles=2,"
        return try await rms(dc + band) - rms(dc)
    }
}

@Suite("Audible or refused: a sound outside what people hear is never a clip, nor a ringtone")
struct AudibilityTests {
    @Test("clip import refuses the tone: exit 1, one error line naming the file and why; the library unchanged", arguments: InaudibleTone.allCases)
    func importRefused(_ tone: InaudibleTone) async throws {
        let dir = TemporaryDirectory("inaudible")
        let data = dir.file("data")
        let path = try await tone.make(in: dir)
        let share = try await InaudibleTone.bandShare(path)
        #expect(share < -35, "ffmpeg's own reading of the band: \(share) dB")
        let kept = try await voicealarm(["--data-dir", data, "clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        #expect(kept.status == 0, "\(kept.stderr)")
        let before = try FileManager.default.contentsOfDirectory(atPath: "\(data)/clips")

        let refused = try await voicealarm(["--data-dir", data, "clip", "import", path])
        #expect(refused.status == 1)
        let lines = refused.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(refused.stderr)")
        #expect(lines.first?.hasPrefix("error: \(path): inaudible: its sound lies outside what people hear") == true, "\(refused.stderr)")
        #expect(refused.stdout.isEmpty)
        let after = try await voicealarm(["--data-dir", data, "--json", "clip", "list"])
        #expect((try JSONSerialization.jsonObject(with: after.stdoutData) as? [Any])?.count == 1, "only the speech: \(after.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(data)/clips") == before, "nothing stored, no temporary left")

        let render = try await voicealarm(["render", "-o", dir.file("out.m4a"), path])
        #expect(render.status == 1 && render.stderr.contains("inaudible"), "render fails the item: \(render.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("out.m4a")))
    }

    @Test("Real speech passes with margin: SampleAudio, espeak-ng's voices and every difficult recording, measured by ffmpeg too")
    func speechPasses() async throws {
        let dir = TemporaryDirectory("audible")
        let data = dir.file("data")
        var inputs = ["calm.wav", "ready.mp3", "grateful.m4a", "kind.ogg", "strong.flac"].map { "\(ProjectPaths.sampleAudio)/\($0)" }
        // Tone and music beds, hum, noise, DC offset, hot and very quiet takes, peaky utterances.
        inputs += try await DifficultCorpus.shared().clips.values.flatMap { $0 }.sorted()
        for voice in ["en", "en+m3", "de"] {
            let spoken = dir.file("espeak-\(voice).wav")
            try await ProcessRunner.mustRun("espeak-ng", ["-v", voice, "-w", spoken, "I am calm, and I am ready for today."])
            inputs.append(spoken)
        }
        for input in inputs {
            let share = try await InaudibleTone.bandShare(input)
            #expect(share > -5, "\(input): the band holds \(share) dB by ffmpeg, far above the −20 dB rule")
            let imported = try await voicealarm(["--data-dir", data, "clip", "import", input, "-q"])
            #expect(imported.status == 0, "\(input): \(imported.stderr)")
        }
    }

    @Test("Both tones uploaded to a real server: 422 with the reason, nothing stored", .timeLimit(.minutes(1)))
    func uploadRefused() async throws {
        let dir = TemporaryDirectory("inaudible-upload")
        let data = dir.file("data")
        let server = try await ServeProcess(dataDir: data)
        let browser = try await server.pairBrowser()
        for tone in InaudibleTone.allCases {
            let answer = try await server.curl("POST", "/api/clips?title=Tone", browser.curl + ["--data-binary", "@\(try await tone.make(in: dir))"])
            #expect(answer.status == 422, "\(tone): \(answer.status) \(answer.body)")
            let error = try #require((answer.json as? [String: Any])?["error"] as? [String: Any])
            let message = error["message"] as? String ?? ""
            #expect(message.hasPrefix("the upload: inaudible: its sound lies outside what people hear") && error["code"] as? Int == 1, "\(message)")
            #expect(!message.contains(dir.path), "the private upload file is not named: \(message)")
        }
        let clips = try await server.curl("GET", "/api/clips", browser.curl)
        #expect((clips.json as? [Any])?.isEmpty == true, "nothing stored: \(clips.body)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(data)/clips").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(data)/uploads").isEmpty, "no upload left behind")
        _ = await server.stop()
    }

    /// A clip an earlier version let in (its stored copy now a 25 Hz tone of the same length):
    /// the ringtone made of it would be inaudible, so the alarm rings the default tone and says why.
    @Test("A ringtone that would come out inaudible resolves to the default tone, the reason in alarm list")
    func inaudibleRingtone() async throws {
        let dir = TemporaryDirectory("inaudible-ringtone")
        let data = dir.file("data")
        let audible = dir.file("audible.wav")
        try await AudioFixtures.tone(audible, seconds: 3, frequency: 440)
        let clip = try await voicealarm(["--data-dir", data, "clip", "import", audible, "-q"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let listed = try await voicealarm(["--data-dir", data, "--json", "clip", "list"])
        let stored = try #require((try JSONSerialization.jsonObject(with: listed.stdoutData) as? [[String: Any]])?.first?["path"] as? String)
        try await ProcessRunner.mustRun(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=25:sample_rate=44100:duration=3", "-af", "volume=6dB", "-c:a", "flac",
                "-sample_fmt", "s32", "-f", "flac", stored,
            ])
        _ = try await voicealarm(["--data-dir", data, "playlist", "create", "hum", clip, "-q"])
        let added = try await voicealarm(["--data-dir", data, "alarm", "add", "hum", "--at", "07:00", "--days", "mon", "-q"])
        #expect(added.status == 0, "\(added.stderr)")
        let alarms = try await voicealarm(["--data-dir", data, "--json", "alarm", "list"])
        let alarm = try #require((try JSONSerialization.jsonObject(with: alarms.stdoutData) as? [[String: Any]])?.first)
        #expect(alarm["sound"] as? String == "default", "\(alarm)")
        let reason = alarm["soundReason"] as? String ?? ""
        #expect(reason.hasPrefix("the ringtone would be inaudible: its sound lies outside what people hear"), "\(reason)")
        let sounds = (try? FileManager.default.contentsOfDirectory(atPath: "\(data)/Sounds")) ?? []
        #expect(sounds.allSatisfy { !$0.hasSuffix(".m4a") }, "no voice file kept: \(sounds)")
    }
}
