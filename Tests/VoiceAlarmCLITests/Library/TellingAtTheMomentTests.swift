import Foundation
import TestSupport
import Testing

/// What a person is told at the moment it matters: a clip left out at the cap as they arrange
/// it, the alarms a clip removal would leave on the default tone, the commands that change an
/// alarm, which alarms snooze, one verdict from check, and the option at fault in a JSON error.
@Suite("Told at the moment it matters", .timeLimit(.minutes(1)))
struct TellingAtTheMomentTests {
    /// A library with a 3.7 s greeting and a 35 s 'My manifesto' in playlist 'p'.
    private func crossing() async throws -> (RingLibrary, greeting: String, long: String, created: ProcessResult) {
        let lib = try RingLibrary()
        try await AudioFixtures.tone(lib.dir.file("greeting.wav"), seconds: 3.7)
        try await AudioFixtures.tone(lib.dir.file("long.wav"), seconds: 35, frequency: 330)
        let greeting = try await lib.ok(["clip", "import", lib.dir.file("greeting.wav"), "--title", "greeting", "-q"])
        let long = try await lib.ok(["clip", "import", lib.dir.file("long.wav"), "--title", "My manifesto", "-q"])
        let created = try await lib.run(["playlist", "create", "p", greeting, long])
        return (lib, greeting, long, created)
    }

    @Test("playlist create and alarm add say when a clip crosses the cap, or follows one cut at it, and is left out")
    func capSaidWhenArranged() async throws {
        let (lib, greeting, long, created) = try await crossing()
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stderr.contains("warning: only 3.7 s of the 29 s cap is used: 'My manifesto' (35.0 s) crosses it"), "\(created.stderr)")
        let added = try await lib.run(["alarm", "add", "p", "--at", "07:00", "--days", "mon"])
        #expect(added.status == 0)
        #expect(added.stderr.contains("'My manifesto' (35.0 s) crosses it"), "\(added.stderr)")
        // The ringtone built is what the warning says: 3.7 s of it, measured by ffprobe.
        let probe = try await IndependentMeasure.probe("\(lib.dataDir)/Sounds/\(added.stdout.trimmingCharacters(in: .newlines)).m4a")
        #expect(abs(probe.duration - 3.7) < 0.2, "\(probe.duration) s")
        // The long one first: it is cut at the cap, and the greeting after it never plays.
        let reversed = try await lib.run(["playlist", "create", "r", long, greeting])
        #expect(
            reversed.status == 0
                && reversed.stderr.contains(
                    "warning: 'My manifesto' (35.0 s) is longer than the 29 s cap and is cut at it, so the clip after it is left out of r's ringtone"),
            "\(reversed.stderr)")
        let whole = try await lib.run(["playlist", "create", "q", try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])])
        #expect(whole.status == 0 && !whole.stderr.contains("warning:"), "a playlist that fits says nothing: \(whole.stderr)")
    }

    @Test("clip remove of a clip alarms play asks for --force and names the alarms left on the default tone")
    func clipRemoveAsks() async throws {
        let (lib, greeting, long, _) = try await crossing()
        let alarm = try await lib.ok(["alarm", "add", "p", "--at", "07:00", "--days", "mon", "-q"])
        let before = try await lib.ok(["clip", "list", "--json"])
        let refused = try await lib.run(["clip", "remove", greeting, long])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("error: ") && refused.stderr.contains(alarm) && refused.stderr.contains("--force"), "\(refused.stderr)")
        #expect(refused.stderr.contains("would ring the default tone"), "both clips gone leaves the alarm with no recording: \(refused.stderr)")
        #expect(try await lib.ok(["clip", "list", "--json"]) == before, "nothing removed")
        let one = try await lib.run(["clip", "remove", long])
        #expect(one.status == 1 && !one.stderr.contains("default tone"), "the greeting stays: \(one.stderr)")
        #expect(try await lib.run(["clip", "remove", long, "--yes"]).status == 0)
        #expect(try await lib.run(["clip", "remove", greeting, "--force"]).status == 0)
        let listed = try await lib.ok(["alarm", "list", "--json"])
        #expect(listed.contains("\"sound\" : \"default\"") || listed.contains("\"sound\":\"default\""), "\(listed)")
    }

    @Test("alarm edit says the alarm's new ring; a refused edit's JSON error names the input; alarm list shows the snooze")
    func editSaysTheNewRing() async throws {
        let (lib, _, _, _) = try await crossing()
        let alarm = try await lib.ok(["alarm", "add", "p", "--at", "06:30", "--days", "mon-fri", "--snooze", "5", "--label", "work", "-q"])
        let edit = try await lib.run(["alarm", "edit", String(alarm.prefix(8)), "--at", "07:00"])
        #expect(edit.status == 0 && edit.stdout == alarm + "\n", "\(edit.stderr)")
        #expect(edit.stderr.contains("Alarm \(alarm) on p at 07:00 weekdays rings next"), "\(edit.stderr)")
        let before = try await lib.ok(["alarm", "list", "--json"])
        let json = try await lib.run(["alarm", "edit", alarm, "--days", "mon", "--date", "2030-01-01", "--json"])
        let error = try #require((try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])?["error"] as? [String: Any])
        #expect(json.status == 64 && error["code"] as? Int == 64 && error["input"] as? String == "--days", "\(error)")
        #expect(try await lib.ok(["alarm", "list", "--json"]) == before, "nothing changed")
        #expect(try await lib.ok(["alarm", "list"]).contains("snooze 5 min"))
    }

    @Test("check says its verdict once; a JSON error names the option at fault")
    func verdictOnceAndOptionAtFault() async throws {
        let lib = try RingLibrary()
        let long = lib.dir.file("long.wav")
        try await AudioFixtures.tone(long, seconds: 31)
        let check = try await voicealarm(["check", long])
        #expect(check.status == 1 && check.stdout.isEmpty)
        #expect(check.stderr.split(separator: "\n").count == 1 && check.stderr.hasPrefix("error: \(long): not a shippable alarm sound: "), "\(check.stderr)")
        let bad = try await lib.run(["alarm", "add", "manifesto", "--at", "25:00", "--json"])
        #expect(bad.status == 64)
        let error = try #require((try JSONSerialization.jsonObject(with: bad.stdoutData) as? [String: Any])?["error"] as? [String: Any])
        #expect(error["input"] as? String == "--at")
    }

    @Test("doctor passes on a new library: the build folder and the idle scheduler are warnings, not failures")
    func doctorAfterQuickStart() async throws {
        let lib = try RingLibrary()
        // A PATH with no installed voicealarm on it (one installed here would be what the alarms run).
        let doctor = try await lib.run(["doctor"], environment: ["PATH": lib.dir.file("no-voicealarm")])
        #expect(doctor.status == 0, "\(doctor.stderr)")
        #expect(doctor.stderr.contains("inside a build folder"), "the binary under test is in .build: \(doctor.stderr)")
        #expect(doctor.stderr.contains("warnings above are worth a look"))
        _ = try await lib.alarm()
        let waiting = try await lib.run(["doctor"])
        #expect(waiting.status == 1, "an alarm no daemon will ring is a failure: \(waiting.stderr)")
    }
}
