import Testing
import VoiceAlarmCore

@Suite("What a take lost at its end, said in one sentence")
struct CutOffTests {
    @Test(
        "The sentence names the seconds cut and why",
        arguments: [
            (CutOff(kept: 3.99, seconds: 0.021, cause: .partialFrame), "the last 0.02 s were cut off (the recording ends in the middle of a frame)"),
            (CutOff(kept: 3.99, seconds: 0.002, cause: .partialFrame), "the last 0.01 s were cut off (the recording ends in the middle of a frame)"),
            (CutOff(kept: 5, seconds: 2.5, cause: .shorterThanDeclared), "the last 2.50 s were cut off (the file ends before the length its header declares)"),
            (CutOff(kept: 1.234, seconds: nil, cause: .damaged), "everything after 1.23 s was cut off (the rest could not be decoded)"),
        ])
    func sentence(_ cut: CutOff, _ expected: String) {
        #expect(cut.sentence == expected)
    }
}
