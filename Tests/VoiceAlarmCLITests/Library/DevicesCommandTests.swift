import Foundation
import TestSupport
import Testing

/// `voicealarm devices` through the binary, on ALSA configurations of the test's own.
@Suite("voicealarm devices: only what opens, like arecord")
struct DevicesCommandTests {
    @Test("Hinted PCMs that open are listed; one that cannot open, or blocks (a FIFO with no writer), is not; no card is said")
    func devices() async throws {
        let dir = TemporaryDirectory("devices")
        try """
        pcm.nullsink { type null }
        pcm.speaker { type file  slave.pcm "nullsink"  file "\(dir.file("played.wav"))"  format "wav"  hint { show on  description "A WAV file" } }
        pcm.broken { type hw  card 99  hint { show on  description "A card that is not there" } }
        pcm.waiting { type file  slave.pcm "nullsink"  file "/dev/null"  infile "\(dir.file("mic.fifo"))"  format "raw"  hint { show on  description "A FIFO nobody writes" } }
        """.write(toFile: dir.file("asound.conf"), atomically: true, encoding: .utf8)
        mkfifo(dir.file("mic.fifo"), 0o600)  // opening the 'waiting' PCM blocks until a writer comes
        var environment = ProcessInfo.processInfo.environment
        environment["ALSA_CONFIG_PATH"] = dir.file("asound.conf")
        for direction in [[], ["--playback"]] {
            let text = try await ProcessRunner.run(ProjectPaths.binary, ["devices"] + direction, environment: environment)
            #expect(text.status == 0)
            // The FIFO is the 'waiting' PCM's input: it blocks capture only; playing into it opens.
            let listed = direction.isEmpty ? ["speaker"] : ["speaker", "waiting"]
            #expect(text.stdout == (direction.isEmpty ? "speaker\n    A WAV file\n" : "speaker\n    A WAV file\nwaiting\n    A FIFO nobody writes\n"))
            #expect(text.stderr.contains("no sound cards found"))
            let json = try await ProcessRunner.run(ProjectPaths.binary, ["devices", "--json"] + direction, environment: environment)
            let document = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])
            #expect(document["direction"] as? String == (direction.isEmpty ? "capture" : "playback"))
            #expect((document["cards"] as? [Any])?.isEmpty == true)
            #expect((document["pcms"] as? [[String: String]])?.compactMap { $0["name"] } == listed)
        }
        let written = (try? FileManager.default.attributesOfItem(atPath: dir.file("played.wav"))[.size] as? Int) ?? 0
        #expect(written <= 44, "opening to list plays nothing (at most an empty WAV header)")
    }
}
