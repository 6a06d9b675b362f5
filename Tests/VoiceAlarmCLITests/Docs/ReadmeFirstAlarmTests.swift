import Foundation
import TestSupport
import Testing

/// The README's "Your first voice alarm", as a newcomer meets it: the commands of its fenced
/// blocks, in order, copied as they are into one shell.
struct FirstAlarmSection {
    /// The section's text, from its heading to the next `## ` heading.
    let text: String

    init(readme: String = "\(ProjectPaths.root)/README.md") throws {
        let lines = try String(contentsOfFile: readme, encoding: .utf8).components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "## Your first voice alarm"), "the README has a section 'Your first voice alarm'")
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("## ") } ?? lines.endIndex
        text = lines[start..<end].joined(separator: "\n")
    }

    /// The lines of its fenced code blocks, in order.
    var commands: [String] {
        var inside = false
        var found: [String] = []
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") { inside.toggle(); continue }
            if inside, !line.trimmingCharacters(in: .whitespaces).isEmpty { found.append(line) }
        }
        return found
    }

    /// Its inline code that runs `voicealarm` (`` `voicealarm …` `` in the prose).
    var inlineCommands: [String] {
        text.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element).filter { $0.contains("voicealarm ") }
    }
}

/// Where a newcomer stands after `make demo`: a folder with `SampleAudio/` and the built
/// `.build/debug/voicealarm` (links to this checkout's), a library of their own, and a desktop's
/// sound server for a speaker.
private struct NewcomerMachine {
    let folder = TemporaryDirectory("first-alarm")
    let pulse: PulseServer
    var dataDir: String { folder.file("library") }
    var state: String { folder.file("state") }

    init() async throws {
        pulse = try await PulseServer()
        let files = FileManager.default
        try files.createDirectory(atPath: folder.file(".build/debug"), withIntermediateDirectories: true)
        try files.createSymbolicLink(atPath: folder.file(".build/debug/voicealarm"), withDestinationPath: ProjectPaths.binary)
        try files.createSymbolicLink(atPath: folder.file("SampleAudio"), withDestinationPath: ProjectPaths.sampleAudio)
        try files.createDirectory(atPath: folder.file("home/.config"), withIntermediateDirectories: true)
        try files.createDirectory(atPath: state, withIntermediateDirectories: true)
    }

    /// The person's shell: nothing of the test's PATH (an installed voicealarm would be found only
    /// where a person's would), the library in the folder (`$VOICEALARM_HOME`, as the README says),
    /// a home of its own, and ALSA's `default` through the sound server.
    var environment: [String: String] {
        var environment = pulse.environment
        environment["PATH"] = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
        environment["VOICEALARM_HOME"] = dataDir
        environment["HOME"] = folder.file("home")
        environment["XDG_CONFIG_HOME"] = folder.file("home/.config")
        environment["XDG_DATA_HOME"] = folder.file("home/.local/share")
        environment["STATE"] = state
        return environment
    }

    /// `voicealarm ARGS --json` on the newcomer's library: the document it prints.
    func json(_ arguments: [String]) async throws -> Any {
        let result = try await ProcessRunner.run(ProjectPaths.binary, ["--json"] + arguments, environment: environment)
        return try #require(try? JSONSerialization.jsonObject(with: result.stdoutData), "\(arguments): \(result.stderr)")
    }
}

@Suite("The README's first voice alarm, run as it is written")
struct ReadmeFirstAlarmTests {
    @Test("Its blocks walk the five steps in order: a recording, a playlist, an alarm, something to ring it, listen and ring")
    func stepsInOrder() throws {
        let commands = try FirstAlarmSection().commands.joined(separator: "\n")
        var from = commands.startIndex
        for step in ["clip import", "playlist create", "alarm add", "voicealarm daemon", "listen", "ring"] {
            let found = try #require(commands.range(of: step, range: from..<commands.endIndex), "'\(step)' after the step before it in:\n\(commands)")
            from = found.upperBound
        }
    }

    @Test(
        "On a fresh library the commands leave an alarm scheduled with the voice, a running daemon, and a speaker that played it",
        .timeLimit(.minutes(2)))
    func firstAlarm() async throws {
        let machine = try await NewcomerMachine()
        let commands = try FirstAlarmSection().commands
        // The README's lines as one shell session; the test's own lines around them only record
        // what still runs at the end (the daemon), wait until the test has looked, then stop it.
        let script = """
            set -euo pipefail
            stop_background() {
              for job in $(jobs -p); do
                kill -TERM "$job" 2>/dev/null || true
                status=0; wait "$job" || status=$?
                echo "$status" >> "$STATE/stopped"
              done
            }
            trap stop_background EXIT
            \(commands.joined(separator: "\n"))
            jobs -p > "$STATE/running"
            : > "$STATE/walked"
            until [ -e "$STATE/checked" ]; do sleep 0.1; done
            """
        try script.write(toFile: machine.folder.file("walk.sh"), atomically: true, encoding: .utf8)
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        shell.arguments = [machine.folder.file("walk.sh")]
        shell.currentDirectoryURL = URL(fileURLWithPath: machine.folder.path)
        shell.environment = machine.environment
        let stdout = machine.folder.file("stdout"), stderr = machine.folder.file("stderr")
        for path in [stdout, stderr] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        shell.standardInput = FileHandle.nullDevice
        shell.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdout))
        shell.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderr))
        func said() -> String { (try? String(contentsOfFile: stderr, encoding: .utf8)) ?? "" }

        let heard = try await machine.pulse.recording {
            try shell.run()
            await eventually(within: 90, every: 0.1) { FileManager.default.fileExists(atPath: "\(machine.state)/walked") || !shell.isRunning }
        }
        defer { _ = FileManager.default.createFile(atPath: "\(machine.state)/checked", contents: nil) }
        try #require(
            FileManager.default.fileExists(atPath: "\(machine.state)/walked"),
            "every command of the section succeeds; the shell stopped with exit \(shell.isRunning ? "none yet" : "\(shell.terminationStatus)") after:\n\(said())"
        )

        // The alarm, as the library and the scheduler hold it: on the voice, not the default tone.
        let alarms = try #require(try await machine.json(["alarm", "list"]) as? [[String: Any]])
        try #require(alarms.count == 1, "one alarm: \(alarms)")
        let id = try #require(alarms[0]["id"] as? String)
        let sound = try #require(alarms[0]["sound"] as? String)
        #expect(alarms[0]["target"] as? String == "morning" && alarms[0]["voice"] as? Bool == true, "\(alarms[0])")
        #expect(
            sound.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(m4a|caf|wav|aiff|mp3)/) != nil && sound.hasPrefix(id),
            "the alarm's own voice file, not 'default': \(sound) (\(alarms[0]["soundReason"] ?? "no reason"))")
        let held = try #require(try await machine.json(["scheduler", "list"]) as? [[String: Any]])
        #expect(held.map { $0["id"] as? String } == [id] && held.first?["sound"] as? String == sound, "the scheduler rings it with the voice: \(held)")
        #expect(held.first?["next"] is String, "and it has a next ring: \(held)")

        // The voice file, read by ffprobe and ffmpeg: a ringtone within the cap, made of the recordings.
        let voice = "\(machine.dataDir)/Sounds/\(sound)"
        let probe = try await IndependentMeasure.probe(voice)
        #expect(probe.codecName == "aac" && probe.duration > 3 && probe.duration <= 29, "\(probe)")
        let calm = try await IndependentMeasure.similarity(voice, "\(ProjectPaths.sampleAudio)/calm.wav", seconds: 3)
        #expect(calm > 0.9, "the ringtone opens with the first clip: \(calm)")

        // The daemon the README started still runs, and doctor finds nothing that stops a ring.
        let running = try String(contentsOfFile: "\(machine.state)/running", encoding: .utf8).split(separator: "\n").compactMap { pid_t($0) }
        #expect(running.count == 1 && running.allSatisfy { kill($0, 0) == 0 }, "the daemon runs in the background: \(running)\n\(said())")
        // (Exit 0: no daemon while an alarm waits would be exit 1. Warnings may stay: this binary
        // lives in a build folder, as a newcomer's does.)
        let doctor = try await ProcessRunner.run(ProjectPaths.binary, ["doctor"], environment: machine.environment)
        #expect(doctor.status == 0, "\(doctor.stdout)\(doctor.stderr)")

        // What the speaker played (the sound server's monitor): the alarm's ringtone.
        let raw = machine.folder.file("played.raw"), played = machine.folder.file("played.wav")
        try heard.withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: raw))
        try await ProcessRunner.mustRun("/usr/bin/ffmpeg", ["-v", "error", "-f", "s16le", "-ar", "44100", "-ac", "1", "-i", raw, played])
        let match = try await IndependentMeasure.similarity(voice, toLooped: played, seconds: 6)
        #expect(match > 0.9, "the speaker played the voice ringtone: \(match)")
        #expect(said().contains("Rang \(sound) on 'default'"), "the test ring rang the voice: \(said())")

        _ = FileManager.default.createFile(atPath: "\(machine.state)/checked", contents: nil)
        let status = await shell.ended()
        #expect(status == 0, "\(said())")
        let stopped = (try? String(contentsOfFile: "\(machine.state)/stopped", encoding: .utf8)) ?? ""
        #expect(stopped == "0\n", "the daemon stopped cleanly on SIGTERM: \(stopped)\n\(said())")
    }

    @Test("The microphone alternative the section offers is a command line the tool accepts")
    func recordAlternative() async throws {
        let section = try FirstAlarmSection()
        let record = try #require(section.inlineCommands.first { $0.contains("voicealarm clip record") }, "the section shows recording as well as importing")
        let devices = try AlsaTestDevices(brokenDefault: true)
        let library = TemporaryDirectory("first-record")
        var environment = devices.environment
        environment["VOICEALARM_HOME"] = library.file("data")
        environment["PATH"] = URL(fileURLWithPath: ProjectPaths.binary).deletingLastPathComponent().path + ":/usr/bin:/bin"
        let result = try await ProcessRunner.run("/bin/bash", ["-euo", "pipefail", "-c", record], environment: environment)
        // With no microphone it fails at the device (exit 1), not at its words (a usage error, 64).
        #expect(result.status == 1 && result.stderr.contains("sound device 'default'"), "\(record): \(result.status) \(result.stderr)")
    }
}
