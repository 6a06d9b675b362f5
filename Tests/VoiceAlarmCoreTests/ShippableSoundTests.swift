import Testing
import VoiceAlarmCore

private func facts(
    _ ext: String = "m4a", container: String = "mov,mp4,m4a,3gp,3g2,mj2", codec: String = "aac",
    duration: Double = 20, peak: Double = 0.5
) -> SoundFacts {
    SoundFacts(fileExtension: ext, container: container, codec: codec, sampleRate: 44_100, channels: 1, duration: duration, peak: peak)
}

@Suite("What makes a file a shippable alarm sound")
struct ShippableSoundTests {
    @Test(
        "Shippable files",
        arguments: [
            facts(),
            facts("caf", container: "caf", codec: "pcm_s16le"),
            facts("caf", container: "caf", codec: "adpcm_ima_qt"),
            facts("wav", container: "wav", codec: "pcm_s16le"),
            facts("aiff", container: "aiff", codec: "pcm_s16be"),
            facts("aif", container: "aiff", codec: "pcm_s16be"),
            facts("mp3", container: "mp3", codec: "mp3"),
            facts(duration: 29.999),
        ])
    func shippable(_ f: SoundFacts) {
        #expect(ShippableSound.problems(of: f).isEmpty)
    }

    @Test(
        "Files an alarm would refuse, and the reason named",
        arguments: [
            (facts(""), "no extension"),
            (facts("ogg", container: "ogg", codec: "vorbis"), "not an alarm sound format"),
            (facts("m4a", container: "wav", codec: "pcm_s16le"), "extension says m4a"),
            (facts("caf", container: "caf", codec: "opus"), "codec opus"),
            (facts(duration: 30.0), "shorter than 30 s"),
            (facts(duration: 45), "shorter than 30 s"),
            (facts(duration: 0), "no audio"),
            (facts(peak: 0.0005), "silent"),
        ])
    func refused(_ f: SoundFacts, _ reason: String) {
        let problems = ShippableSound.problems(of: f)
        #expect(problems.contains { $0.contains(reason) }, "\(problems)")
    }
}
