import Foundation
import TestSupport
import Testing
import VoiceAlarmStore

/// The root's debug build: where it puts the library (`libVoiceAlarm.so`) and the module files.
private enum RootDebugBuild {
    static let path = "\(ProjectPaths.root)/.build/debug"

    /// Whether the tests run from this build (`make test`), not from a sanitized one in its own
    /// folder (`make sanitize`), whose library a plain `swiftc` link could not use.
    static var runsTheseTests: Bool {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        return runner.path == URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }
}

/// The example app (`Examples/WakeUpToMyVoice`) as an app outside this package sees the
/// library: its `main.swift` compiled by `swiftc` against the root build's module files and
/// `libVoiceAlarm.so`, without `-package-name`, so only `public` declarations are visible — one
/// use of anything else fails to compile. (`make examples` builds it through SwiftPM instead.)
@Suite(
    "The example app, built against the library product's public API alone", .timeLimit(.minutes(5)),
    .enabled(if: RootDebugBuild.runsTheseTests, "links the root's debug build; a sanitized test build is another"))
struct ExamplePackageTests {
    static let build = RootDebugBuild.path
    static let modules = "\(build)/Modules"
    static let example = "\(ProjectPaths.root)/Examples/WakeUpToMyVoice/Sources/WakeUpToMyVoice/main.swift"

    /// The module maps of the C libraries the library's modules import (internally: a client
    /// never names them, but the compiler loads them with the modules, as SwiftPM does for an
    /// app that depends on the package).
    static var moduleMaps: [String] {
        let sources = "\(ProjectPaths.root)/Sources"
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: sources)) ?? []
        return folders.sorted().map { "\(sources)/\($0)/module.modulemap" }.filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// Compiles `sources` into `output` as a client of the library product: public API only.
    static func compile(_ sources: [String], to output: String) async throws -> ProcessResult {
        try await ProcessRunner.run(
            "swiftc",
            ["-swift-version", "6", "-module-name", "WakeUpToMyVoice"] + sources + [
                "-I", modules, "-L", build, "-lVoiceAlarm", "-Xlinker", "-rpath", "-Xlinker", build, "-o", output,
            ] + moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] })
    }

    @Test("The example compiles with public declarations only, and its run leaves a weekday alarm on a voice ringtone ffprobe reads")
    func exampleRuns() async throws {
        #expect(FileManager.default.fileExists(atPath: "\(Self.build)/libVoiceAlarm.so"), "swift build makes the dynamic product")
        let dir = TemporaryDirectory("example")
        let binary = dir.file("WakeUpToMyVoice")
        let compiled = try await Self.compile([Self.example], to: binary)
        try #require(compiled.status == 0, "swiftc: \(compiled.stderr)")

        let data = dir.file("library")
        let run = try await ProcessRunner.run(binary, [data, "\(ProjectPaths.sampleAudio)/calm.wav"])
        try #require(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let alarmLine = try #require(lines.first { $0.hasPrefix("alarm ") })
        let alarm = try #require(UUID(uuidString: String(alarmLine.dropFirst(6).prefix(36))))
        let id = alarm.uuidString.lowercased()
        #expect(lines.first?.hasPrefix("clip ") == true && lines.first?.contains("\"Calm\"") == true, "\(lines)")
        #expect(lines.contains("playlist morning"))
        #expect(alarmLine.hasSuffix("07:00 weekdays: voice \(id).m4a"))
        #expect(lines.contains("voice off: default tone (voice off)"))
        #expect(lines.contains("voice on: voice \(id).m4a"))

        // The events, in the order of the calls: built by `addAlarm`, the default tone (voice off,
        // no failure), built again.
        let ringtone = "\(data)/Sounds/\(id).m4a"
        let events = lines.filter { $0.hasPrefix("event ") }
        #expect(events == ["event built \(id) \(ringtone)", "event default-tone \(id) voice off", "event built \(id) \(ringtone)"])

        // What the library holds after the example closed it, read by the store and by ffprobe.
        let stored = try #require(try LibraryStore(dataDirectory: data).alarm(alarm))
        #expect(stored.alarm.voice && stored.alarm.days == .workDays && stored.soundFile == "\(id).m4a")
        let probe = try await IndependentMeasure.probe(ringtone)
        #expect(probe.codecName == "aac" && probe.duration > 1 && probe.duration <= 29, "\(probe)")
    }

    @Test("A client naming a package declaration compiles with the package's name and not without: the check above sees public API only")
    func packageDeclarationsHidden() async throws {
        let dir = TemporaryDirectory("example-private")
        let source = dir.file("main.swift")
        try "import VoiceAlarm\nprint(LibraryOpener.self)\n".write(toFile: source, atomically: true, encoding: .utf8)
        let outside = try await Self.compile([source], to: dir.file("outside"))
        #expect(outside.status != 0)
        #expect(outside.stderr.contains("cannot find 'LibraryOpener' in scope"), "\(outside.stderr)")
        // The same program as one of the package's own modules (SwiftPM's -package-name, from its build plan).
        let plan = try String(contentsOfFile: "\(ProjectPaths.root)/.build/debug.yaml", encoding: .utf8)
        let name = try #require(plan.firstMatch(of: /"-package-name","([^"]+)"/)?.1)
        let inside = try await Self.compile([source, "-package-name", String(name)], to: dir.file("inside"))
        #expect(inside.status == 0, "\(inside.stderr)")
    }
}
