import Foundation
import TestSupport
import Testing
import VoiceAlarmCLI

/// `--json` on every command of the command table, once succeeding and once failing, through
/// the binary: stdout is one JSON document with camelCase keys and no number hidden in a
/// string; a failure is `{"error": {"message", "input", "code"}}` with the exit status as code.
@Suite("--json on every command")
struct JSONEverywhereTests {
    /// How each command is run: its arguments when it should succeed and when it should fail
    /// (`$CLIP`, `$CLIP2`, `$ALARM`, `$FILE` … are filled in as the library grows). Commands run
    /// in this order within their lane (`lanes`), so each finds what the earlier ones made. A
    /// command missing here fails the test.
    static let runs: [(command: String, success: [String], failure: [String])] = [
        ("devices", ["devices", "--playback"], ["devices", "extra"]),
        ("render", ["render", "-o", "$OUT/r.m4a", "$SAMPLES/calm.wav", "$SAMPLES/kind.ogg"], ["render", "-o", "$OUT/x.m4a", "$OUT/missing.wav"]),
        // A file that is not shippable is check's result (the verdict, exit 1), not an error: its failure here is a usage one.
        ("check", ["check", "$OUT/r.m4a"], ["check", "--format", "m4a"]),
        ("clip import", ["clip", "import", "$SAMPLES/calm.wav", "--title", "calm"], ["clip", "import", "$OUT/missing.wav"]),
        ("clip say", ["clip", "say", "I am calm and ready."], ["clip", "say", "?!"]),
        ("clip record", ["clip", "record", "--max-seconds", "1", "--title", "spoken"], ["clip", "record", "--max-seconds", "0"]),
        ("clip list", ["clip", "list"], ["clip", "list", "extra"]),
        // Before any playlist or alarm: the archive's clips are the library's own, so importing it back adds nothing.
        ("export", ["export", "$OUT/library.tar"], ["export", "$OUT/no-such-folder/library.tar"]),
        ("import", ["import", "$OUT/library.tar", "--dry-run"], ["import", "$OUT/missing.tar"]),
        ("clip replace", ["clip", "replace", "$CLIP", "$SAMPLES/strong.flac"], ["clip", "replace", "ffffffff", "$SAMPLES/strong.flac"]),
        ("clip rename", ["clip", "rename", "$CLIP", "calm again"], ["clip", "rename", "ffffffff", "x"]),
        ("playlist create", ["playlist", "create", "morning", "$CLIP", "$CLIP2"], ["playlist", "create", "manifesto"]),
        ("playlist add", ["playlist", "add", "morning", "$CLIP"], ["playlist", "add", "nosuch", "$CLIP"]),
        ("playlist move", ["playlist", "move", "morning", "3", "1"], ["playlist", "move", "morning", "9", "1"]),
        ("playlist remove", ["playlist", "remove", "morning", "1"], ["playlist", "remove", "morning", "x"]),
        ("playlist show", ["playlist", "show", "morning"], ["playlist", "show", "nosuch"]),
        ("playlist list", ["playlist", "list"], ["playlist", "list", "extra"]),
        ("manifesto set", ["manifesto", "set", "$CLIP2"], ["manifesto", "set", "ffffffff"]),
        ("manifesto show", ["manifesto", "show"], ["manifesto", "show", "extra"]),
        (
            "alarm add", ["alarm", "add", "morning", "--at", "06:45", "--days", "mon-fri", "--snooze", "5"],
            ["alarm", "add", "morning", "--at", "06:45", "--days", "fri-mon"]
        ),
        ("alarm list", ["alarm", "list", "--all"], ["alarm", "list", "--all=yes"]),
        ("voice off", ["voice", "off", "$ALARM"], ["voice", "off", "ffffffff"]),
        ("voice on", ["voice", "on", "$ALARM"], ["voice", "on", "ffffffff"]),
        ("alarm edit", ["alarm", "edit", "$ALARM", "--at", "06:50"], ["alarm", "edit", "ffffffff", "--at", "06:50"]),
        ("alarm off", ["alarm", "off", "$ALARM"], ["alarm", "off", "ffffffff"]),
        ("alarm on", ["alarm", "on", "$ALARM"], ["alarm", "on", "ffffffff"]),
        ("alarm skip", ["alarm", "skip", "$ALARM"], ["alarm", "skip", "$ALARM", "--date", "2020-01-01"]),
        ("alarm unskip", ["alarm", "unskip", "$ALARM"], ["alarm", "unskip", "$ALARM"]),
        ("holidays import", ["holidays", "import", "$OUT/holidays.ics"], ["holidays", "import", "$OUT/missing.ics"]),
        ("holidays list", ["holidays", "list"], ["holidays", "list", "--year", "20x7"]),
        ("holidays remove", ["holidays", "remove", "holidays"], ["holidays", "remove", "holidays"]),
        ("scheduler list", ["scheduler", "list"], ["scheduler", "list", "extra"]),
        ("reconcile", ["reconcile"], ["reconcile", "extra"]),
        ("listen", ["listen", "morning", "--device", "speaker"], ["listen", "nosuch"]),
        ("show", ["show", "morning", "--svg", "$OUT/morning.svg"], ["show", "morning", "--svg", "$OUT/no-such-folder/morning.svg"]),
        ("ring", ["ring", "$ALARM", "--device", "speaker", "--max-seconds", "0.3"], ["ring", "$ALARM", "--max-seconds", "-1"]),
        ("stop", ["stop"], ["stop", "extra"]),
        // Succeeds while $ALARM rings (started for it below); fails once nothing rings.
        ("snooze", ["snooze"], ["snooze"]),
        ("settings", ["settings", "gap", "0.2"], ["settings", "gap", "5"]),
        ("build", ["build", "--all"], ["build", "nosuch"]),
        ("batch", ["batch", "$OUT/manifest.json", "--out", "$OUT/batch"], ["batch", "$OUT/missing.json", "--out", "$OUT/batch"]),
        ("doctor", ["doctor"], ["doctor", "extra"]),
        ("service install", ["service", "install"], ["service", "install", "extra"]),
        ("service status", ["service", "status"], ["service", "status", "extra"]),
        ("service remove", ["service", "remove"], ["service", "remove", "extra"]),
        ("daemon", ["daemon", "--poll-seconds", "1"], ["daemon", "--poll-seconds", "0"]),
        // Runs until stopped, trying a broker that is not there; its start document is what is read.
        ("mqtt", ["mqtt", "--broker", "127.0.0.1:9", "--username", "va"], ["mqtt", "--broker", "no such:1"]),
        ("repair", ["repair"], ["repair", "extra"]),
        ("serve", ["serve", "--listen", "127.0.0.1:0"], ["serve", "--listen", "bedside.example:8470"]),
        ("serve pair", ["serve", "pair"], ["serve", "pair", "--listen", "127.0.0.1"]),
        // --remove: a browser's database is only ever read here (the test's HOME may be a person's).
        ("serve trust", ["serve", "trust", "--remove"], ["serve", "trust", "extra"]),
        ("token create", ["token", "create", "backup script"], ["token", "create", "back\nup"]),
        ("serve devices", ["serve", "devices"], ["serve", "devices", "extra"]),
        ("serve revoke", ["serve", "revoke", "$DEVICE"], ["serve", "revoke", "ffffffff"]),
        ("playlist rename", ["playlist", "rename", "morning", "weekdays"], ["playlist", "rename", "weekdays", "manifesto"]),
        ("alarm remove", ["alarm", "remove", "$ALARM"], ["alarm", "remove", "ffffffff"]),
        ("playlist delete", ["playlist", "delete", "weekdays"], ["playlist", "delete", "nosuch"]),
        ("clip remove", ["clip", "remove", "$CLIP"], ["clip", "remove", "$CLIP2", "ffffffff"]),
    ]

    /// Commands whose result document comes with exit 1 in this sandbox: `doctor` reports that
    /// no daemon runs (its problems are in the document); `service install` wrote the unit, but
    /// no user manager runs here to start it.
    static let resultWithFailure: Set<String> = ["doctor", "service install"]

    /// Commands that never succeed (none now: `alarm edit` edits).
    static let refusesOnly: Set<String> = []

    /// Commands that need nothing the library's own commands make, in groups that each run in a
    /// folder and library of their own, beside the rest (`library`: every other command, in the
    /// table's order). As one chain of some 130 commands the test took about four minutes of a
    /// test run on two cores, and ended it.
    static let lanes: [String: Set<String>] = [
        "files": ["devices", "render", "check", "batch"],
        "services": ["service install", "service status", "service remove", "daemon", "mqtt"],
        "web": ["serve", "serve pair", "serve trust", "token create", "serve devices", "serve revoke"],
    ]

    /// The lane `command` runs in.
    static func lane(of command: String) -> String {
        lanes.first { $0.value.contains(command) }?.key ?? "library"
    }

    @Test("Every command of the table is run here")
    func tableIsComplete() {
        let tested = Set(Self.runs.map(\.command))
        for spec in VoiceAlarmTool.parser.commands where spec.name != "help" && !Self.refusesOnly.contains(spec.name) {
            #expect(tested.contains(spec.name), "'\(spec.name)' has no --json run in JSONEverywhereTests.runs")
        }
        #expect(Set(Self.lanes.values.joined()).isSubset(of: tested), "a lane names a command the table does not run")
    }

    @Test("Each command prints one JSON document on success and an error object on failure", arguments: ["files", "services", "web", "library"])
    func everyCommand(_ lane: String) async throws {
        let dir = TemporaryDirectory("json-\(lane)")
        let devices = try AlsaTestDevices()
        let runs = Self.runs.filter { Self.lane(of: $0.command) == lane }
        let microphone =
            runs.contains { $0.command == "clip record" }
            ? try await TestMicrophone(infile: try IndependentMeasure.decodedSamples("\(ProjectPaths.sampleAudio)/strong.flac", rate: 48_000)) : nil
        try """
        {"ringtones": [{"id": "one", "clips": ["\(ProjectPaths.sampleAudio)/calm.wav"], "format": "wav"}]}
        """.write(toFile: dir.file("manifest.json"), atomically: true, encoding: .utf8)
        try
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:x@y\r\nDTSTART;VALUE=DATE:20270101\r\nRRULE:FREQ=YEARLY\r\nSUMMARY:New Year\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            .write(toFile: dir.file("holidays.ics"), atomically: true, encoding: .utf8)
        var environment = devices.environment
        environment["HOME"] = dir.path
        environment["XDG_CONFIG_HOME"] = dir.file("config")
        environment["XDG_RUNTIME_DIR"] = dir.file("runtime")  // no user manager: the service is written, not started
        var values = ["$OUT": dir.path, "$SAMPLES": ProjectPaths.sampleAudio]

        for (command, success, failure) in runs {
            // The microphone's configuration for recording, the speaker's for everything else.
            var env = environment
            if command == "clip record", let microphone { env["ALSA_CONFIG_PATH"] = microphone.config }
            let fill = { (words: [String]) in
                words.map { word in values.sorted { $0.key.count > $1.key.count }.reduce(word) { $0.replacingOccurrences(of: $1.key, with: $1.value) } }
            }
            let base = ["--data-dir", dir.file("data"), "--json"]

            var ring: Process?
            if command == "snooze" { ring = try await Self.ringing(values["$ALARM"]!, dataDir: dir.file("data"), devices: devices) }
            let ok =
                await ["daemon", "serve", "mqtt"].contains(command)
                ? try Self.daemonStart(base + fill(success), env) : try await ProcessRunner.run(ProjectPaths.binary, base + fill(success), environment: env)
            if let ring { kill(ring.processIdentifier, SIGKILL); await ring.ended() }
            let expected: Set<Int32> = Self.resultWithFailure.contains(command) ? [0, 1] : [0]
            #expect(expected.contains(ok.status), "\(command): exit \(ok.status): \(ok.stderr)")
            let document = try #require(
                try? JSONSerialization.jsonObject(with: Data(ok.stdout.utf8), options: [.fragmentsAllowed]),
                "\(command): stdout is not one JSON document: \(ok.stdout)")
            #expect((document as? [String: Any])?["error"] == nil, "\(command): succeeded with an error object")
            Self.checkShape(document, command: command)
            Self.remember(command, document, &values)

            let bad = try await ProcessRunner.run(ProjectPaths.binary, base + fill(failure), environment: env)
            #expect([1, 64].contains(bad.status), "\(command) \(failure): exit \(bad.status)")
            #expect(bad.stderr.hasPrefix("error: "), "\(command): \(bad.stderr)")
            let error = try #require(
                (try? JSONSerialization.jsonObject(with: Data(bad.stdout.utf8))) as? [String: Any],
                "\(command) \(failure): no JSON on stdout: \(bad.stdout)")
            let body = try #require(error["error"] as? [String: Any], "\(command): \(bad.stdout)")
            #expect(Set(body.keys) == ["message", "input", "code"])
            #expect(body["code"] as? Int == Int(bad.status))
            #expect((body["message"] as? String).map { bad.stderr.hasPrefix("error: \($0)") } == true, "\(command): \(body) vs \(bad.stderr)")
            Self.checkShape(error, command: command)
        }
    }

    /// camelCase keys everywhere, and no string that is a number.
    static func checkShape(_ value: Any, command: String, path: String = "") {
        switch value {
        case let object as [String: Any]:
            for (key, inner) in object {
                #expect(key.range(of: "^[a-z][a-zA-Z0-9]*$", options: .regularExpression) != nil, "\(command): key '\(path).\(key)' is not camelCase")
                checkShape(inner, command: command, path: "\(path).\(key)")
            }
        case let array as [Any]:
            for inner in array { checkShape(inner, command: command, path: "\(path)[]") }
        case let text as String:
            #expect(Double(text).map { !$0.isFinite } ?? true, "\(command): \(path) is the number \(text) in a string")
        default:
            break
        }
    }

    /// Ids the later commands need, taken from the documents.
    static func remember(_ command: String, _ document: Any, _ values: inout [String: String]) {
        let object = document as? [String: Any]
        switch command {
        case "clip import": values["$CLIP"] = object?["id"] as? String
        case "clip record": values["$CLIP2"] = (object?["clip"] as? [String: Any])?["id"] as? String
        case "alarm add": values["$ALARM"] = (object?["alarm"] as? [String: Any])?["id"] as? String
        case "token create": values["$DEVICE"] = object?["id"] as? String
        default: break
        }
    }

    /// Starts a ring of `alarm` on the paced 'slow' device and waits until it is registered.
    static func ringing(_ alarm: String, dataDir: String, devices: AlsaTestDevices) async throws -> Process {
        let reader = PacedReader(devices.fifo)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProjectPaths.binary)
        process.arguments = ["--data-dir", dataDir, "ring", alarm, "--device", "slow", "--max-seconds", "60", "-q"]
        process.environment = devices.environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Task {
            _ = await process.ended(); withExtendedLifetime(reader) {}
        }  // it reads for as long as the ring lasts
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: "\(dataDir)/ringing/\(alarm).pid") { await pause(0.05) }
        return process
    }

    /// Starts the daemon, reads its start document, then stops it.
    /// A command that runs until stopped (the daemon, the web server): its first document, then SIGKILL.
    static func daemonStart(_ arguments: [String], _ environment: [String: String]) async throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProjectPaths.binary)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let text = await out.fileHandleForReading.text(within: 60) { $0.hasSuffix("}\n") }
        kill(process.processIdentifier, SIGKILL)
        await process.ended()
        return ProcessResult(status: text.hasSuffix("}\n") ? 0 : 1, stderr: "", stdoutData: Data(text.utf8))
    }
}
