import Foundation
import TestSupport
import Testing

@Suite("A spoken stand-in: clip say, then the person's own voice")
struct SpokenStandInTests {
    private func clips(_ lib: RingLibrary) async throws -> [[String: Any]] {
        try #require(try await JSONSerialization.jsonObject(with: Data(lib.ok(["clip", "list", "--json"]).utf8)) as? [[String: Any]])
    }

    @Test("clip say makes speech: not silent, longer for longer text, marked as a stand-in")
    func speech() async throws {
        let lib = try RingLibrary()
        let short = try await lib.ok(["clip", "say", "I am calm.", "-q"])
        let long = try await lib.ok(["clip", "say", "I am calm and ready for the day; I am strong, kind and grateful for all of it.", "-q"])
        let listed = try await clips(lib)
        let paths = Dictionary(uniqueKeysWithValues: listed.map { ($0["id"] as! String, $0["path"] as! String) })
        let shortSound = try await IndependentMeasure.python(paths[short]!), longSound = try await IndependentMeasure.python(paths[long]!)
        #expect(shortSound.integrated > -35, "speech, not silence: \(shortSound.integrated) LUFS")
        #expect(longSound.integrated > -35)
        #expect(shortSound.duration > 0.5)
        #expect(longSound.duration > 2.5 * shortSound.duration, "\(longSound.duration) s vs \(shortSound.duration) s")
        #expect(listed.map { $0["spokenText"] as? String } == ["I am calm.", "I am calm and ready for the day; I am strong, kind and grateful for all of it."])
        await #expect(try lib.ok(["clip", "list"]).split(separator: "\n").allSatisfy { $0.hasSuffix("(spoken stand-in)") })
        // Another voice is another sound.
        let french = try await lib.ok(["clip", "say", "I am calm.", "--voice", "fr", "-q"])
        let frenchPath = try await clips(lib).first { $0["id"] as? String == french }?["path"] as? String
        await #expect(try IndependentMeasure.similarity(paths[short]!, try #require(frenchPath)) < 0.9)
    }

    @Test("An alarm on a stand-in rings the generated voice; record --replace gives it the person's take, rebuilt and re-scheduled")
    func standInThenOwnVoice() async throws {
        let lib = try RingLibrary()
        let clip = try await lib.ok(["clip", "say", "I am calm and ready for the day.", "-q"])
        _ = try await lib.ok(["playlist", "create", "morning", clip, "-q"])
        let alarm = try await lib.ok(["alarm", "add", "morning", "--at", "06:30", "--days", "weekdays", "-q"])
        let listed = try await #require(try JSONSerialization.jsonObject(with: Data(lib.ok(["alarm", "list", "--json"]).utf8)) as? [[String: Any]])
        #expect(listed[0]["spokenStandIns"] as? [String] == [clip])
        await #expect(try lib.ok(["alarm", "list"]).contains("voice, with a spoken stand-in"))
        // A copy: the clip's file is replaced when the person records it.
        let generated = lib.dir.file("generated.flac")
        try await FileManager.default.copyItem(atPath: try #require(try clips(lib).first?["path"] as? String), toPath: generated)

        await #expect(try lib.run(["ring", alarm, "--device", "speaker", "--max-seconds", "1.5"]).status == 0)
        await #expect(try IndependentMeasure.similarity(lib.devices.speaker, generated, seconds: 1.5) > 0.8, "the ring plays the generated voice")

        // The person records it: strong.flac stands in for their voice at the microphone.
        let take = try await IndependentMeasure.decodedSamples("\(ProjectPaths.sampleAudio)/strong.flac", rate: 48_000)
        let microphone = try await TestMicrophone(infile: take)
        let recorded = try await ProcessRunner.run(
            ProjectPaths.binary, ["--data-dir", lib.dataDir, "clip", "record", "--replace", clip, "--max-seconds", "2.5"],
            environment: microphone.environment)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stderr.contains("Rebuilt and re-scheduled alarms: \(alarm)"))
        let after = try await #require(try clips(lib).first)
        #expect(after["id"] as? String == clip, "the clip keeps its id")
        #expect(after["spokenText"] is NSNull, "it is the person's voice now")
        let relisted = try await #require(try JSONSerialization.jsonObject(with: Data(lib.ok(["alarm", "list", "--json"]).utf8)) as? [[String: Any]])
        #expect(relisted[0]["spokenStandIns"] as? [String] == [])
        #expect(relisted[0]["soundReason"] is NSNull)
        await #expect(try lib.ok(["scheduler", "list"]).contains(alarm))

        await #expect(try lib.run(["ring", alarm, "--device", "speaker", "--max-seconds", "1.5"]).status == 0)
        await #expect(
            try IndependentMeasure.similarity(lib.devices.speaker, "\(ProjectPaths.sampleAudio)/strong.flac", seconds: 1.5) > 0.8, "the ring plays the take")
        await #expect(try IndependentMeasure.similarity(lib.devices.speaker, generated, seconds: 1.5) < 0.5, "not the generated voice")
    }

    @Test("Without eSpeak NG's data the command says so and exits 1: the library never ends the process itself")
    func noVoiceData() async throws {
        let lib = try RingLibrary()
        let empty = TemporaryDirectory("no-espeak-data")
        let result = try await lib.run(["clip", "say", "I am calm", "--json"], environment: ["ESPEAK_DATA_PATH": empty.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: text to speech is not available"), "\(result.stderr)")
        #expect(result.stdout.contains("\"code\" : 1"))
        await #expect(try clips(lib).isEmpty)
    }

    @Test(
        "Text that cannot be spoken, and a voice eSpeak NG lacks, are refused; nothing is stored",
        arguments: [
            (["clip", "say", ""], "error: TEXT: the text is empty"),
            (["clip", "say", "   "], "error: TEXT: the text is empty"),
            (["clip", "say", "?!… —"], "error: TEXT: nothing to speak: only punctuation or symbols"),
            (["clip", "say", "one\ntwo"], "error: TEXT: control characters"),
            (["clip", "say", String(repeating: "calm ", count: 120)], "error: TEXT: at most 500 characters"),
            (["clip", "say", "I am calm", "--voice", "klingon-xx"], "error: --voice: 'klingon-xx' is not an eSpeak NG voice"),
            (["clip", "say", "I am calm", "--voice", "../../etc/passwd"], "error: --voice: '../../etc/passwd' is not an eSpeak NG voice"),
            (["clip", "say", "I am calm", "--title", "a\u{1B}[31m"], "error: --title: "),
        ])
    func refused(_ arguments: [String], _ message: String) async throws {
        let lib = try RingLibrary()
        let temporary = TemporaryDirectory("say-tmp")
        let result = try await lib.run(arguments, environment: ["TMPDIR": temporary.path])
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty, "no speech left behind")
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        await #expect(try clips(lib).isEmpty)
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: "\(lib.dataDir)/clips")) ?? []
        #expect(leftovers.isEmpty)
    }
}
