import Foundation
import TestSupport
import Testing

/// The command line a Linux user expects, through the binary: previews heard through ALSA's
/// file plugin, renames, removing several at once, days as people write them, answers that
/// teach, and lists that fit a terminal.
@Suite("Previews, names, day ranges and answers that teach")
struct CommandLineHabitsTests {
    private func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    /// A library whose `morning` playlist holds kind.ogg then calm.wav, with a voice alarm on it.
    private func morning() async throws -> (lib: RingLibrary, clips: [String], alarm: String) {
        let lib = try RingLibrary()
        let a = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/kind.ogg", "-q"])
        let b = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        _ = try await lib.ok(["playlist", "create", "morning", a, b, "-q"])
        let alarm = try await lib.ok(["alarm", "add", "morning", "--at", "06:00", "--days", "sun", "-q"])
        return (lib, [a, b], alarm)
    }

    private func clipPaths(_ lib: RingLibrary) async throws -> [String: String] {
        let clips = try #require(try await json(lib.ok(["clip", "list", "--json"])) as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: clips.map { ($0["id"] as! String, $0["path"] as! String) })
    }

    // MARK: Previews

    @Test("listen PLAYLIST, listen CLIP and listen manifesto play the recordings whole, in order")
    func listenByName() async throws {
        let (lib, clips, _) = try await morning()
        let paths = try await clipPaths(lib)
        let first = try await IndependentMeasure.decodedSamples(paths[clips[0]]!)
        let second = try await IndependentMeasure.decodedSamples(paths[clips[1]]!)

        await #expect(try lib.run(["listen", "morning", "--device", "speaker"]).status == 0)
        let played = try await IndependentMeasure.decodedSamples(lib.devices.speaker)
        #expect(played.count == first.count + second.count)
        #expect(correlation(Array(played.prefix(first.count)), first) > 0.999)
        #expect(correlation(Array(played.dropFirst(first.count)), second) > 0.999)

        await #expect(try lib.run(["listen", String(clips[1].prefix(8)), "--device", "speaker"]).status == 0)
        let clip = try await IndependentMeasure.decodedSamples(lib.devices.speaker)
        #expect(clip.count == second.count)
        #expect(correlation(clip, second) > 0.999)

        _ = try await lib.ok(["manifesto", "set", clips[0], "-q"])
        let listened = try await #require(try json(lib.ok(["listen", "manifesto", "--device", "speaker", "--json"])) as? [String: Any])
        #expect(listened["subject"] as? String == "manifesto")
        #expect(listened["ringtone"] as? Bool == false)
        #expect(await correlation(try IndependentMeasure.decodedSamples(lib.devices.speaker), first) > 0.999)
    }

    @Test("listen --ringtone plays exactly what the ringtone file holds, cut at the cap")
    func listenRingtone() async throws {
        let lib = try RingLibrary()
        // 3.5 s, then the 35-second manifesto: the cap cuts the ringtone before the second clip.
        let short = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/kind.ogg", "-q"])
        let long = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/manifesto.flac", "-q"])
        _ = try await lib.ok(["settings", "format", "wav", "-q"])
        _ = try await lib.ok(["playlist", "create", "cut", short, long, "-q"])
        let alarm = try await lib.ok(["alarm", "add", "cut", "--at", "06:00", "--days", "sun", "-q"])
        let listed = try await #require(try json(lib.ok(["alarm", "list", "--json"])) as? [[String: Any]])
        let sound = try #require(listed.first?["sound"] as? String)
        let ringtone = try await IndependentMeasure.decodedSamples("\(lib.dataDir)/Sounds/\(sound)")

        let temporary = TemporaryDirectory("preview-tmp")
        for reference in ["cut", alarm] {
            let result = try await lib.run(["listen", reference, "--ringtone", "--device", "speaker"], environment: ["TMPDIR": temporary.path])
            #expect(result.status == 0, "\(result.stderr)")
            let played = try await IndependentMeasure.decodedSamples(lib.devices.speaker)
            #expect(abs(played.count - ringtone.count) <= 1, "\(reference): \(played.count) vs \(ringtone.count) samples")
            #expect(correlation(played, ringtone) > 0.999)
            #expect(Double(played.count) / 44_100 < 5, "the 35 s clip crossed the cap and is not heard")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty, "the preview's render is removed")
    }

    @Test("A preview that cannot play is an error, not an ALARM MADE NO SOUND event")
    func previewWithoutDevice() async throws {
        let lib = try RingLibrary(brokenDefault: true)
        let clip = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        let result = try await lib.run(["listen", clip])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: sound device 'default'"))
        #expect(result.stderr.contains("voicealarm devices"))
        #expect(!result.stderr.contains("ALARM MADE NO SOUND"))
        let log = (try? String(contentsOfFile: "\(lib.dataDir)/events.log", encoding: .utf8)) ?? ""
        #expect(!log.contains("ALARM MADE NO SOUND"))
        let empty = try await lib.run(["listen", "nosuch", "--json"])
        #expect(empty.status == 1)
        #expect(empty.stdout.contains("\"input\" : \"nosuch\""))
    }

    // MARK: Names

    @Test("clip rename changes the title only; playlist rename takes the alarms along, nothing rebuilt")
    func renames() async throws {
        let (lib, clips, alarm) = try await morning()
        let before = try await #require(try json(lib.ok(["alarm", "list", "--json"])) as? [[String: Any]])
        let sound = "\(lib.dataDir)/Sounds/\(before[0]["sound"] as! String)"
        let stamp = try FileManager.default.attributesOfItem(atPath: sound)[.modificationDate] as? Date

        let renamed = try await #require(try json(lib.ok(["clip", "rename", String(clips[0].prefix(8)), "Kind words", "--json"])) as? [String: Any])
        #expect(renamed["title"] as? String == "Kind words")
        await #expect(try lib.ok(["playlist", "show", "morning"]).contains("Kind words"))

        let moved = try await #require(try json(lib.ok(["playlist", "rename", "morning", "weekdays", "--json"])) as? [String: Any])
        #expect(moved["name"] as? String == "weekdays")
        #expect(moved["alarms"] as? [String] == [alarm])
        let after = try await #require(try json(lib.ok(["alarm", "list", "--json"])) as? [[String: Any]])
        #expect(after[0]["target"] as? String == "weekdays")
        #expect(after[0]["soundReason"] is NSNull)
        #expect(try FileManager.default.attributesOfItem(atPath: sound)[.modificationDate] as? Date == stamp, "no rebuild")
        #expect(try await lib.run(["playlist", "show", "morning"]).status == 1)

        // A name already taken (in any case) is refused, and nothing changes; a change of case is allowed.
        _ = try await lib.ok(["playlist", "create", "evening", "-q"])
        let taken = try await lib.run(["playlist", "rename", "weekdays", "EVENING"])
        #expect(taken.status == 1)
        #expect(taken.stderr == "error: EVENING: a playlist with this name already exists\n")
        await #expect(try lib.ok(["playlist", "list"]).split(separator: "\n") == ["weekdays", "evening"])
        #expect(try await lib.run(["playlist", "rename", "weekdays", "manifesto"]).status == 1)
        #expect(try await lib.run(["clip", "rename", clips[0], "two\nlines"]).status == 1)
        _ = try await lib.ok(["playlist", "rename", "weekdays", "Weekdays", "-q"])
        await #expect(try lib.ok(["playlist", "list"]).split(separator: "\n") == ["Weekdays", "evening"])
    }

    @Test("alarm remove and clip remove take several ids; one unknown id removes nothing")
    func removeSeveral() async throws {
        let (lib, clips, first) = try await morning()
        let second = try await lib.ok(["alarm", "add", "morning", "--at", "07:00", "--days", "sun", "-q"])
        let third = try await lib.ok(["alarm", "add", "morning", "--at", "08:00", "--days", "sun", "-q"])
        let refused = try await lib.run(["alarm", "remove", first, second, "0123abcd"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: 0123abcd: no such alarm (see 'voicealarm alarm list')\n")
        await #expect(try (json(lib.ok(["alarm", "list", "--json"])) as? [[String: Any]])?.count == 3)
        await #expect(try lib.ok(["scheduler", "list"]).split(separator: "\n").count == 3)

        let removed = try await #require(try json(lib.ok(["alarm", "remove", first, String(second.prefix(8)), "--json"])) as? [String: [String]])
        #expect(removed["removed"] == [first, second])
        let left = try await #require(try json(lib.ok(["alarm", "list", "--json"])) as? [[String: Any]])
        #expect(left.map { $0["id"] as? String } == [third])

        let paths = try await clipPaths(lib)
        #expect(try await lib.run(["clip", "remove", clips[0], clips[1], "ffffffff"]).status == 1)
        #expect(clips.allSatisfy { FileManager.default.fileExists(atPath: paths[$0]!) }, "no clip file removed")
        await #expect(try clipPaths(lib).count == 2)
        let gone = try await #require(try json(lib.ok(["clip", "remove", clips[0], clips[1], "--force", "--json"])) as? [String: Any])
        #expect(gone["removed"] as? [String] == clips)
        #expect(gone["targets"] as? [String] == ["morning"])
        await #expect(try clipPaths(lib).isEmpty)
        #expect(clips.allSatisfy { !FileManager.default.fileExists(atPath: paths[$0]!) })
        let onDefault = try await #require(try json(lib.ok(["alarm", "list", "--json"])) as? [[String: Any]])
        #expect(onDefault[0]["soundReason"] as? String != nil, "the alarm left with no recording rings the default tone")
    }

    // MARK: Days

    @Test(
        "Days as people write them are stored as the days meant, and listed compactly",
        // The spelling table is the core's (WeekdaysTests); here, through the binary, make test
        // takes a range list and a word, make test-full every row.
        arguments: TestScope.cases(
            [
                ("MON-wed,fri", ["mon", "tue", "wed", "fri"], "mon-wed,fri"),
                ("weekdays", ["mon", "tue", "wed", "thu", "fri"], "weekdays"),
                ("Weekends", ["sat", "sun"], "weekends"),
                ("daily", ["mon", "tue", "wed", "thu", "fri", "sat", "sun"], "daily"),
                ("tue,thursday", ["tue", "thu"], "tue,thu"),
            ],
            quick: [
                ("MON-wed,fri", ["mon", "tue", "wed", "fri"], "mon-wed,fri"),
                ("Weekends", ["sat", "sun"], "weekends"),
            ]))
    func dayRanges(_ text: String, _ days: [String], _ compact: String) async throws {
        let (lib, _, _) = try await morning()
        let id = try await lib.ok(["alarm", "add", "morning", "--at", "09:30", "--days", text, "-q"])
        let listed = try #require(try await json(lib.ok(["alarm", "list", "--json"])) as? [[String: Any]])
        #expect(listed.first { $0["id"] as? String == id }?["days"] as? [String] == days)
        let line = try #require(try await lib.ok(["alarm", "list"]).split(separator: "\n").first { $0.hasPrefix(id.prefix(8)) })
        #expect(line.contains("  \(compact) "))
    }

    @Test(
        "A backwards or unknown day is refused with why, and nothing is added",
        arguments: TestScope.cases(
            [("fri-mon", "'fri-mon' runs backwards"), ("mon-funday", "'funday' is not a day"), ("mo", "'mo' is not a day")],
            quick: [("fri-mon", "'fri-mon' runs backwards"), ("mon-funday", "'funday' is not a day")]))
    func badDays(_ text: String, _ message: String) async throws {
        let (lib, _, _) = try await morning()
        let result = try await lib.run(["alarm", "add", "morning", "--at", "09:30", "--days", text])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("error: --days: \(message)"))
        await #expect(try (json(lib.ok(["alarm", "list", "--json"])) as? [[String: Any]])?.count == 1)
    }

    @Test("An alarm in a daylight-saving gap says when it will ring, and rings at the first valid minute")
    func daylightSavingGap() async throws {
        let (lib, _, _) = try await morning()
        let result = try await lib.run(["alarm", "add", "morning", "--at", "02:30", "--date", "2027-03-28"], environment: ["TZ": "Europe/Berlin"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("note: 02:30 does not exist on 2027-03-28 in Europe/Berlin"))
        #expect(result.stderr.contains("rings at 03:00, the first valid minute"))
        let id = result.stdout.trimmingCharacters(in: .newlines)
        let listed = try #require(try await json(lib.run(["alarm", "list", "--json"], environment: ["TZ": "Europe/Berlin"]).stdout) as? [[String: Any]])
        #expect(listed.first { $0["id"] as? String == id }?["next"] as? String == "2027-03-28T03:00:00+02:00")
        let plain = try await lib.run(["alarm", "add", "morning", "--at", "03:30", "--date", "2027-03-28"], environment: ["TZ": "Europe/Berlin"])
        #expect(plain.status == 0)
        #expect(!plain.stderr.contains("daylight-saving"))
    }

    // MARK: Answers that teach

    @Test(
        "Mistyped commands and options get the closest ones; other words for edit are offered it",
        arguments: [
            (["alarm", "lsit"], "unknown alarm command 'lsit'; did you mean 'alarm list'?"),
            (["lst"], "unknown command 'lst'; did you mean 'clip list', 'playlist list' or 'alarm list'?"),
            (["remove"], "unknown command 'remove'; did you mean"),
            (["rendr"], "unknown command 'rendr'; did you mean 'render'?"),
            (["clip", "list", "--jsn"], "unknown option '--jsn'; did you mean '--json'?"),
            (["alarm", "add", "x", "--dayz", "mon"], "unknown option '--dayz'; did you mean '--days'"),
            (["alarm", "change", "9c41d2e0"], "unknown alarm command 'change'; did you mean 'alarm edit'?"),
            (["alarm", "edit", "9c41d2e0"], "nothing to change"),
        ])
    func suggestions(_ arguments: [String], _ message: String) async throws {
        let lib = try RingLibrary()
        let result = try await lib.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("error: \(message)"), "\(result.stderr)")
        if arguments.contains("edit") {
            #expect(result.stderr.contains("--at, --days, --date, --label, --snooze, --plays or --skip-holidays"), "\(result.stderr)")
        }
    }

    // MARK: Lists

    @Test("alarm list hides one-off alarms that have rung unless --all")
    func finishedHidden() async throws {
        let (lib, _, weekly) = try await morning()
        // Added three days ago (libfaketime), for the day after: it has rung by now.
        let past = Date().addingTimeInterval(-3 * 86_400)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let date = formatter.string(from: past.addingTimeInterval(86_400))
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let added = try await ProcessRunner.run(
            FakeClock.wrapper,
            [
                "-f", "@\(formatter.string(from: past))", ProjectPaths.binary,
                "--data-dir", lib.dataDir, "alarm", "add", "morning", "--at", "10:00", "--date", date, "-q",
            ],
            environment: lib.devices.environment.merging(["TZ": "UTC"]) { $1 })
        #expect(added.status == 0, "\(added.stderr)")
        let once = added.stdout.trimmingCharacters(in: .newlines)
        let shown = try await lib.run(["alarm", "list"])
        #expect(shown.stdout.contains(weekly.prefix(8)))
        #expect(!shown.stdout.contains(once.prefix(8)))
        #expect(shown.stderr.contains("1 one-off alarm has rung and is hidden; 'alarm list --all' shows it."))
        let all = try await lib.ok(["alarm", "list", "--all"])
        #expect(all.split(separator: "\n").contains { $0.hasPrefix(once.prefix(8)) && $0.contains("rang") })
        await #expect(try (json(lib.ok(["alarm", "list", "--json", "--all"])) as? [[String: Any]])?.count == 2)
        await #expect(try (json(lib.ok(["alarm", "list", "--json"])) as? [[String: Any]])?.count == 1)
    }

    @Test("On a terminal, lists fit 100 columns with short ids and long titles ellipsised; a pipe gets every character")
    func terminalFit() async throws {
        let (lib, clips, _) = try await morning()
        let label = String(repeating: "a long label for the morning alarm ", count: 4)
        let title = String(repeating: "a very long clip title ", count: 6)
        _ = try await lib.ok(["alarm", "add", "morning", "--at", "06:30", "--days", "mon-fri", "--label", label, "-q"])
        _ = try await lib.ok(["clip", "rename", clips[0], title, "-q"])
        let config = lib.devices.configPath
        for command in ["alarm list", "clip list", "playlist show morning"] {
            // `script` gives the command a terminal of 100 columns.
            let shell = "stty cols 100; ALSA_CONFIG_PATH=\(config) \(ProjectPaths.binary) --data-dir \(lib.dataDir) \(command) -q"
            let terminal = try await ProcessRunner.run("/usr/bin/script", ["-qec", shell, "/dev/null"])
            let lines = terminal.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n").filter { !$0.isEmpty }
            #expect(!lines.isEmpty)
            for line in lines { #expect(line.count <= 100, "\(command): \(line.count) columns: \(line)") }
            #expect(lines.contains { $0.hasSuffix("…") }, "\(command): nothing ellipsised")
            #expect(!terminal.stdout.contains(clips[0]), "\(command): the full id is not repeated")
            let piped = try await lib.ok(command.split(separator: " ").map(String.init))
            #expect(piped.contains(command == "alarm list" ? label : title), "\(command): a pipe gets every character")
        }
    }
}
