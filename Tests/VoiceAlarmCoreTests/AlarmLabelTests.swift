import Testing
import VoiceAlarmCore

@Suite("The alarm label rule")
struct AlarmLabelTests {
    @Test(
        "A label is kept unless it holds a control character",
        arguments: [
            ("Work", nil), ("", nil), ("Réveil ☀️ 早上好", nil), ("a long label for the morning alarm", nil), ("tab\tbetween", .controlCharacters),
            ("two\nlines", .controlCharacters), ("carriage\rreturn", .controlCharacters), ("\u{1B}[2Jcleared", .controlCharacters),
            ("bell\u{7}", .controlCharacters), ("delete\u{7F}", .controlCharacters), ("c1\u{85}next line", .controlCharacters),
        ] as [(String, AlarmLabel.Problem?)])
    func rule(_ label: String, _ problem: AlarmLabel.Problem?) {
        if let problem {
            #expect(throws: problem) { try AlarmLabel.check(label) }
        } else {
            #expect(throws: Never.self) { try AlarmLabel.check(label) }
        }
    }

    @Test("The refusal says what is not allowed, in the words the command line has always used")
    func message() {
        #expect(AlarmLabel.Problem.controlCharacters.description == "control characters (such as newlines) are not allowed")
    }
}
