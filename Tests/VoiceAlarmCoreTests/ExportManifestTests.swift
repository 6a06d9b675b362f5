import Foundation
import Testing

@testable import VoiceAlarmCore

/// The paths an archive of a library may hold, judged from the text alone.
@Suite("An archive's entry paths")
struct ExportManifestTests {
    @Test(
        "Paths inside the archive's folder are accepted",
        arguments: ["voicealarm-export", "voicealarm-export/", "voicealarm-export/manifest.json", "voicealarm-export/clips/", "voicealarm-export/clips/a.flac"])
    func accepted(_ path: String) {
        #expect(ExportManifest.pathProblem(path) == nil)
    }

    @Test(
        "Paths that leave it, or are not in it, are refused with the reason",
        arguments: [
            ("", "no name"), ("/etc/passwd", "absolute"), ("voicealarm-export/../x", ".."), ("voicealarm-export/clips/../../x", ".."),
            ("../voicealarm-export/x", ".."), ("voicealarm-export//x", "empty"), ("voicealarm-export/./x", "'.'"), ("other/x", "outside"),
            ("voicealarm-exportx/a", "outside"), ("voicealarm-export/a\u{1}b", "control"), ("voicealarm-export\\..\\x", "backslash"),
        ])
    func refused(_ path: String, _ reason: String) {
        let problem = ExportManifest.pathProblem(path)
        #expect(problem?.contains(reason) == true, "\(path): \(problem ?? "accepted")")
    }

    @Test("The path inside the folder drops the folder and a trailing slash")
    func relative() {
        #expect(ExportManifest.relativePath("voicealarm-export/clips/a.flac") == "clips/a.flac")
        #expect(ExportManifest.relativePath("voicealarm-export/clips/") == "clips")
        #expect(ExportManifest.relativePath("voicealarm-export/") == "")
    }
}
