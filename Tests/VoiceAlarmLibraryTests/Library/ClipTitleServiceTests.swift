import Foundation
import Testing
import VoiceAlarm

@Suite("Clip titles in the service")
struct ClipTitleServiceTests {
    @Test("A title with control characters is refused before anything is read; a file name's are replaced in the default title")
    func titles() throws {
        let f = try LibraryFixture()
        #expect(throws: LibraryError.invalidTitle(reason: "control characters (such as newlines) are not allowed")) {
            try f.service.clips.add(f.sample("calm.wav"), title: "I am\ncalm")
        }
        #expect(try f.service.clips.all().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.service.store.clipsDirectory).isEmpty)

        let odd = f.dir.file("calm\nand\u{1B}ready.wav")
        try FileManager.default.copyItem(atPath: f.sample("calm.wav"), toPath: odd)
        #expect(try f.service.clips.add(odd, title: nil).title == "calm and ready")
    }
}
