import Testing
import VoiceAlarmCore

@Suite("One control-character rule")
struct PrintableTextTests {
    @Test(
        "Titles, labels and spoken text refuse exactly what PrintableText calls a control character",
        arguments: [
            "Calm", "tab\there", "two\nlines", "cr\r", "\u{1B}[31mred", "bell\u{7}", "del\u{7F}", "c1\u{85}", "é ☀️ 早",
        ])
    func oneRule(_ text: String) {
        let control = PrintableText.hasControlCharacters(text)
        #expect(control == text.unicodeScalars.contains(where: PrintableText.isControlCharacter))
        #expect((ClipTitle.problem(text) != nil) == control)
        #expect((SpokenText.problem(text) == PrintableText.refusal) == control)
        #expect(((try? AlarmLabel.check(text)) == nil) == control)
        #expect(PrintableText.escaped(text).unicodeScalars.contains(where: PrintableText.isControlCharacter) == false)
        #expect(ClipTitle.fallback(forFile: "/x/\(text).wav").unicodeScalars.contains(where: PrintableText.isControlCharacter) == false)
    }
}
