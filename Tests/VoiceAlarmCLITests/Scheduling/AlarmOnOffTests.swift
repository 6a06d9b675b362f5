import Foundation
import TestSupport
import Testing

/// `alarm off` and `alarm on` through the binary, with each scheduler backend: off keeps the
/// alarm whole (its id, its voice file to the byte) and takes it out of the scheduler; on puts
/// it back as it was, and every surface tells the same next ring.
@Suite("Alarms turned off and on again")
struct AlarmOnOffTests {
    static func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    @Test("Off: kept whole, scheduled nowhere, doctor warns; on: scheduled again as it was", arguments: ["embedded", "systemd"])
    func offAndOn(backend: String) async throws {
        let lib = CLILibrary()
        let units = lib.dir.file("units")
        let scheduler = backend == "systemd" ? ["--scheduler", "systemd", "--unit-dir", units] : ["--scheduler", "embedded"]
        let clip = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        _ = try await lib.ok(["playlist", "create", "morning", clip, "-q"])
        let id = try await lib.ok(scheduler + ["alarm", "add", "morning", "--at", "06:45", "--days", "mon-fri", "--label", "Work", "-q"])
        let other = try await lib.ok(["alarm", "add", "morning", "--at", "07:30", "--days", "sat", "-q"])
        let voiceFile = "\(lib.dataDir)/Sounds/\(id).m4a"
        let voice = try Data(contentsOf: URL(fileURLWithPath: voiceFile))
        let heldBefore = try #require(try Self.json(try await lib.ok(["scheduler", "list", "--json"])) as? [[String: Any]])
        #expect(Set(heldBefore.compactMap { $0["id"] as? String }) == [id, other])
        let timerBefore = backend == "systemd" ? try String(contentsOfFile: "\(units)/voicealarm-\(id).timer", encoding: .utf8) : nil

        let off = try await lib.run(["alarm", "off", String(id.prefix(8))])
        #expect(off.status == 0 && off.stdout == id + "\n", "\(off.stderr)")
        #expect(off.stderr.contains("Off: the alarm at 06:45 ('Work') rings nowhere until 'voicealarm alarm on \(id.prefix(8))'"), "\(off.stderr)")
        let held = try #require(try Self.json(try await lib.ok(["scheduler", "list", "--json"])) as? [[String: Any]])
        #expect(held.compactMap { $0["id"] as? String } == [other], "the scheduler holds the other alarm alone: \(held)")
        if backend == "systemd" {
            #expect(!FileManager.default.fileExists(atPath: "\(units)/voicealarm-\(id).timer"), "the timer is gone")
            #expect(FileManager.default.fileExists(atPath: "\(units)/voicealarm-\(other).timer"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: voiceFile)) == voice, "the voice file is kept to the byte")
        let listed = try #require(try Self.json(try await lib.ok(["alarm", "list", "--json"])) as? [[String: Any]])
        let offAlarm = try #require(listed.first { $0["id"] as? String == id })
        #expect(offAlarm["on"] as? Bool == false && offAlarm["next"] is NSNull && offAlarm["sound"] as? String == "\(id).m4a", "\(offAlarm)")
        #expect(listed.first { $0["id"] as? String == other }?["on"] as? Bool == true)
        #expect(try await lib.ok(["alarm", "list"]).contains("off"), "the listing says off")
        // A reconcile (after a restart, say) keeps it out.
        _ = try await lib.ok(["reconcile", "-q"])
        #expect((try Self.json(try await lib.ok(["scheduler", "list", "--json"])) as? [[String: Any]])?.count == 1)

        // Every alarm off: doctor warns (never a failure: the person may mean it).
        _ = try await lib.ok(["alarm", "off", other, "-q"])
        let doctor = try await lib.run(["doctor"])
        #expect(
            doctor.stdout.contains("every alarm is off: nothing will ring") || doctor.stderr.contains("every alarm is off: nothing will ring"),
            "\(doctor.stdout)\(doctor.stderr)")
        _ = try await lib.ok(["alarm", "on", other, "-q"])

        let on = try await lib.run(["alarm", "on", id])
        #expect(on.status == 0 && on.stderr.contains("On: the alarm at 06:45 ('Work') rings next"), "\(on.stderr)")
        let back = try #require(try Self.json(try await lib.ok(["scheduler", "list", "--json"])) as? [[String: Any]])
        let again = try #require(back.first { $0["id"] as? String == id })
        let before = try #require(heldBefore.first { $0["id"] as? String == id })
        #expect(again["next"] as? String == before["next"] as? String && again["sound"] as? String == before["sound"] as? String, "\(again) vs \(before)")
        let relisted = try #require(try Self.json(try await lib.ok(["alarm", "list", "--json"])) as? [[String: Any]])
        #expect(
            relisted.first { $0["id"] as? String == id }?["next"] as? String == again["next"] as? String, "alarm list and the scheduler tell the same next ring"
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: voiceFile)) == voice, "nothing was rebuilt")
        if let timerBefore {
            #expect(try String(contentsOfFile: "\(units)/voicealarm-\(id).timer", encoding: .utf8) == timerBefore, "the same timer as before")
            let verify = try await ProcessRunner.run(
                "/usr/bin/systemd-analyze", ["verify", "\(units)/voicealarm-\(id).timer", "\(units)/voicealarm-\(id).service"])
            #expect(verify.status == 0, "\(verify.stderr)")
        }
    }

    @Test("Off cancels a snooze waiting; turned on again, the alarm is back without it")
    func offCancelsSnooze() async throws {
        let lib = try RingLibrary()
        let clip = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        _ = try await lib.ok(["manifesto", "set", clip, "-q"])
        let id = try await lib.ok(["alarm", "add", "manifesto", "--at", "06:45", "--days", "daily", "--snooze", "5", "-q"])
        // A ring of it on a device the test paces, then a snooze from the terminal.
        let reader = PacedReader(lib.devices.fifo)
        defer { withExtendedLifetime(reader) {} }  // it reads for the whole test
        let ring = Process()
        ring.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ring.arguments = ["--default-signal=INT,TERM", ProjectPaths.binary, "--data-dir", lib.dataDir, "ring", id, "--device", "slow", "--max-seconds", "60"]
        ring.environment = lib.devices.environment
        ring.standardOutput = FileHandle.nullDevice
        ring.standardError = FileHandle.nullDevice
        try ring.run()
        defer { if ring.isRunning { kill(ring.processIdentifier, SIGKILL) } }
        #expect(
            await eventually(within: 20, every: 0.1) {
                ((try? FileManager.default.contentsOfDirectory(atPath: "\(lib.dataDir)/ringing")) ?? []).contains("\(id).pid")
            })
        _ = try await lib.ok(["snooze", "-q"])
        func held() async throws -> [[String: Any]] { try Self.json(try await lib.ok(["scheduler", "list", "--json"])) as? [[String: Any]] ?? [] }
        #expect(try await held().count == 2, "the alarm and its snooze")
        _ = try await lib.ok(["alarm", "off", id, "-q"])
        #expect(try await held().isEmpty, "neither the alarm nor its snooze")
        _ = try await lib.ok(["alarm", "on", id, "-q"])
        let listed = try #require(try Self.json(try await lib.ok(["alarm", "list", "--json"])) as? [[String: Any]])
        #expect(listed.first?["snoozedUntil"] is NSNull, "\(listed)")
        #expect(try await held().count == 1)
    }

    @Test("Bad input: one error line, the right exit, the library unchanged to the byte (one library, every case in turn)")
    func badInput() async throws {
        let lib = CLILibrary()
        let clip = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        _ = try await lib.ok(["manifesto", "set", clip, "-q"])
        _ = try await lib.ok(["alarm", "add", "manifesto", "--at", "06:45", "--days", "mon", "-q"])
        let before = try lib.files()
        let cases: [([String], Int32, String)] = [
            (["alarm", "off", "ffffffff"], 1, "ffffffff"), (["alarm", "on", "not-an-id"], 1, "not-an-id"),
            (["alarm", "off"], 64, "alarm off"), (["alarm", "on", "a", "b"], 64, "'b'"), (["snooze", "--cancel"], 1, "no snooze is waiting"),
        ]
        for (arguments, status, named) in cases {
            let result = try await lib.run(arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
            #expect(errors.count == 1 && errors[0].contains(named), "\(arguments): \(result.stderr)")
            #expect(try lib.files() == before, "\(arguments): nothing changed")
        }
    }
}
