import Foundation
import TestSupport
import Testing

/// The voice files `voicealarm ARGS` opens, as strace sees every `openat` of the process.
private func voiceFilesOpened(_ lib: CLILibrary, _ arguments: [String]) async throws -> [String] {
    let trace = lib.dir.file("trace-\(UUID().uuidString.prefix(6))")
    let result = try await ProcessRunner.run(
        "/usr/bin/env",
        [
            "strace", "-f", "-qq", "-e", "trace=openat", "-o", trace,
            ProjectPaths.binary, "--data-dir", lib.dataDir,
        ] + arguments)
    guard result.status == 0 else { throw TestSupportError("\(arguments) failed (\(result.status)): \(result.stderr)") }
    let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
    return lines.filter { $0.contains("/Sounds/") && !$0.contains("ENOENT") }.map(String.init)
}

@Suite("Listing alarms costs no decoding when nothing changed")
struct ListingCostTests {
    @Test("alarm list with ten voice alarms opens no voice file; one changed file is checked again", .timeLimit(.minutes(1)))
    func tenVoiceAlarms() async throws {
        let lib = CLILibrary()
        let clip = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav"])
        for playlist in ["morning", "evening"] {
            _ = try await lib.ok(["playlist", "create", playlist, clip])
            for hour in 1...5 { _ = try await lib.ok(["alarm", "add", playlist, "--at", "\(playlist == "morning" ? hour : hour + 12):00", "--days", "mon"]) }
        }
        let listed = try await lib.ok(["alarm", "list", "--json"])
        let sounds = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]]).compactMap { $0["sound"] as? String }
        #expect(sounds.count == 10 && sounds.allSatisfy { $0.hasSuffix(".m4a") })

        #expect(try await voiceFilesOpened(lib, ["alarm", "list"]).isEmpty)
        #expect(try await voiceFilesOpened(lib, ["alarm", "list", "--json"]).isEmpty)

        // A file touched behind the library's back is decoded again by every listing (listings
        // never write), until a build finds it still good and records its new stamp.
        let touched = "\(lib.dataDir)/Sounds/\(sounds[3])"
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: touched)
        #expect(try await voiceFilesOpened(lib, ["alarm", "list"]).contains { $0.contains(sounds[3]) })
        #expect(try await voiceFilesOpened(lib, ["alarm", "list"]).contains { $0.contains(sounds[3]) })
        _ = try await lib.ok(["build", "--all"])
        #expect(try await voiceFilesOpened(lib, ["alarm", "list"]).isEmpty)
    }
}
