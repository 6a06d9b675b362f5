import Testing
import VoiceAlarmCore

@Suite("Audibility: the speech band must hold enough of a sound's power")
struct AudibilityRuleTests {
    /// RMS levels (dBFS) of the whole and of 200 Hz–5 kHz, as measured on real inputs
    /// (docs/ringtone.md), and the rule's verdict.
    @Test(
        "Speech and difficult takes pass; tones outside the band are refused",
        arguments: [
            (-21.0, -21.9, true),  // calm.wav
            (-21.3, -25.0, true),  // a peaky utterance, the corpus's lowest share
            (-60.2, -60.9, true),  // a very quiet take: the rule is relative
            (-9.0, -28.9, true),  // an 8 kHz tone: −19.8 dB, audible, just inside
            (-9.0, -29.1, false),  // just past −20 dB
            (-15.1, -84.4, false),  // 18.5 kHz
            (-16.6, -78.1, false),  // 25 Hz
            (-4.2, -Double.infinity, false),  // nothing at all in the band
            (-Double.infinity, -Double.infinity, true),  // no sound: the silence rule's, not this one's
        ])
    func verdict(_ whole: Double, _ band: Double, _ audible: Bool) {
        let audibility = Audibility(whole: whole, speechBand: band)
        #expect(audibility.isAudible == audible)
        #expect((audibility.problem == nil) == audible)
    }

    @Test("The reason says how much of the power the band holds, and what is needed")
    func reason() {
        #expect(
            Audibility(whole: -16.6, speechBand: -78.1).problem
                == "its sound lies outside what people hear from a bedside speaker: the speech band (200 Hz–5 kHz) holds -61.5 dB of its power, at least -20 dB is needed"
        )
        #expect(Audibility(whole: -4.2, speechBand: -.infinity).problem?.contains("holds nothing of its power") == true)
    }
}
