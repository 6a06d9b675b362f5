import Foundation
import TestSupport
import Testing

@Suite("Clip titles are one line")
struct ClipTitleTests {
    @Test(
        "Control characters in --title are a usage error, checked before anything is imported or recorded",
        arguments: ["clip import", "clip record"], ["two\nlines", "bell\u{7}", "\u{1B}[31mred"])
    func controlCharacters(_ command: String, _ title: String) async throws {
        let dir = TemporaryDirectory("title")
        let data = dir.file("data")
        let arguments =
            command == "clip import"
            ? ["--data-dir", data, "clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "--title", title]
            : ["--data-dir", data, "clip", "record", "--device", "no-such-microphone", "--title", title]
        let result = try await voicealarm(arguments)
        #expect(result.status == 64)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        #expect(lines.first == "error: --title: control characters (such as newlines) are not allowed", "stderr: \(result.stderr)")
        #expect(lines.last == "see 'voicealarm \(command) --help'")
        #expect(lines.count == 2)
        #expect(!FileManager.default.fileExists(atPath: data), "the library was not even opened")
    }

    @Test("--max-seconds past the longest recording is a usage error")
    func recordLimit() async throws {
        let result = try await voicealarm(["clip", "record", "--max-seconds", "601"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("error: --max-seconds: 601 is more than 600, the longest recording the library keeps\n"))
    }
}
