import Foundation
import TestSupport
import Testing

/// FFmpeg's five libraries (and the ~170 they bring), eSpeak NG and libmosquitto are opened on first use:
/// what the dynamic loader itself says it started (`LD_DEBUG=libs`), per command.
@Suite("A command starts only the libraries it uses: FFmpeg, eSpeak NG and libmosquitto on first use, a broken FFmpeg said", .timeLimit(.minutes(1)))
struct StartupLibrariesTests {
    /// The libraries a run of `arguments` started, linked or opened later: the loader's
    /// "calling init: PATH" lines on stderr.
    private static func started(_ lib: RingLibrary, _ arguments: [String]) async throws -> (ProcessResult, [String]) {
        let result = try await lib.run(arguments, environment: ["LD_DEBUG": "libs"])
        let paths = result.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "calling init: ") else { return nil }
            return String(line[range.upperBound...])
        }
        return (result, paths)
    }

    private static func ffmpeg(_ paths: [String]) -> [String] { only(["libavformat", "libavcodec", "libavfilter", "libavutil", "libswresample"], paths) }
    /// Every library opened on first use (FFmpeg's, eSpeak NG, libmosquitto) among `paths`.
    private static func onFirstUse(_ paths: [String]) -> [String] { ffmpeg(paths) + only(["libespeak-ng", "libmosquitto"], paths) }
    private static func only(_ names: [String], _ paths: [String]) -> [String] {
        paths.filter { path in names.contains { path.contains("/\($0).so") } }
    }

    @Test(
        "Listing, the scheduler's list and the version start none of FFmpeg's libraries; a check of a recording opens all five",
        arguments: [["alarm", "list"], ["scheduler", "list"], ["playlist", "list"], ["clip", "list"], ["--version"]])
    func lightCommands(_ arguments: [String]) async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm()
        let (result, paths) = try await Self.started(lib, arguments)
        #expect(result.status == 0, "\(result.stderr.suffix(300))")
        #expect(paths.count > 5, "the loader reported what it started: \(paths.count) libraries")
        #expect(Self.onFirstUse(paths).isEmpty, "\(arguments) started \(Self.onFirstUse(paths))")

        let (check, checked) = try await Self.started(lib, ["check", "\(lib.dataDir)/Sounds/\(id).m4a"])
        #expect(check.status == 0, "\(check.stderr.suffix(300))")
        #expect(Self.ffmpeg(checked).count == 5, "a check opened \(Self.ffmpeg(checked))")
    }

    @Test("A spoken stand-in opens eSpeak NG and FFmpeg (to write the clip), not libmosquitto")
    func spokenStandIn() async throws {
        let lib = try RingLibrary()
        let (said, paths) = try await Self.started(lib, ["clip", "say", "Good morning", "-q"])
        #expect(said.status == 0, "\(said.stderr.suffix(300))")
        #expect(Self.only(["libespeak-ng"], paths).count == 1 && Self.ffmpeg(paths).count == 5, "\(Self.onFirstUse(paths))")
        #expect(Self.only(["libmosquitto"], paths).isEmpty)
    }

    @Test("A broken FFmpeg (a damaged libavformat found first): one error naming the library, nothing added; listing still works")
    func brokenFFmpeg() async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm()
        // The soname the binary asks for, as the loader resolved it for a check.
        let (_, checked) = try await Self.started(lib, ["check", "\(lib.dataDir)/Sounds/\(id).m4a"])
        let format = try #require(checked.first { $0.contains("/libavformat.so.") })
        let soname = URL(fileURLWithPath: format).lastPathComponent
        let broken = lib.dir.file("broken-ffmpeg")
        try FileManager.default.createDirectory(atPath: broken, withIntermediateDirectories: true)
        try Data("not a library\n".utf8).write(to: URL(fileURLWithPath: "\(broken)/\(soname)"))
        let before = try await lib.ok(["clip", "list", "--json", "-q"])

        let imported = try await lib.run(
            ["clip", "import", "\(ProjectPaths.sampleAudio)/kind.ogg"], environment: ["LD_LIBRARY_PATH": broken])
        #expect(imported.status == 1)
        let lines = imported.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("error:") && lines[0].contains(soname), "\(imported.stderr)")
        #expect(try await lib.ok(["clip", "list", "--json", "-q"]) == before, "nothing was added")

        let listed = try await lib.run(["alarm", "list", "-q"], environment: ["LD_LIBRARY_PATH": broken])
        #expect(listed.status == 0 && listed.stdout.contains(id.prefix(8)), "\(listed.stderr)")
    }
}
