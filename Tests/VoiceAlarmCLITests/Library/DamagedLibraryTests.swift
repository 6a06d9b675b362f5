import Foundation
import TestSupport
import Testing

/// Ways a library's database can be damaged on disk.
enum Damage: String, CaseIterable, Sendable {
    case empty, garbage, truncated

    func apply(to path: String) throws {
        switch self {
        case .empty: try Data().write(to: URL(fileURLWithPath: path))
        case .garbage: try Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: URL(fileURLWithPath: path))
        case .truncated:
            let whole = try Data(contentsOf: URL(fileURLWithPath: path))
            try whole.prefix(whole.count / 3).write(to: URL(fileURLWithPath: path))
        }
    }
}

@Suite(
    "A damaged library is never taken for a new one, the alarms still ring, and repair brings it back",
    .timeLimit(.minutes(1)))
struct DamagedLibraryTests {
    /// A library with two voice alarms, its database checkpointed into the main file, then damaged.
    private func damagedLibrary(_ damage: Damage) async throws -> (RingLibrary, [String]) {
        let lib = try RingLibrary()
        let first = try await lib.alarm()
        let second = try await lib.ok(["alarm", "add", "manifesto", "--at", "08:00", "--days", "tue", "-q"])
        #expect(try await lib.ok(["scheduler", "list", "-q"]).split(separator: "\n").count == 2)
        let database = "\(lib.dataDir)/voicealarm.sqlite"
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        try damage.apply(to: database)
        return (lib, [first, second])
    }

    @Test("Commands refuse the damaged library by name; reconcile cancels nothing", arguments: Damage.allCases)
    func refused(_ damage: Damage) async throws {
        let (lib, ids) = try await damagedLibrary(damage)
        let database = "\(lib.dataDir)/voicealarm.sqlite"
        let damaged = try Data(contentsOf: URL(fileURLWithPath: database))
        let list = try await lib.run(["alarm", "list"])
        #expect(list.status == 1)
        #expect(list.stderr.contains("voicealarm.sqlite: damaged") && list.stderr.contains("voicealarm repair"), "\(list.stderr)")
        #expect(!list.stdout.contains("No alarms"), "never a fresh, empty library")
        let reconcile = try await lib.run(["reconcile"])
        #expect(reconcile.status == 1)
        // The scheduler's own list still holds both alarms: nothing was cancelled.
        let held = try String(contentsOfFile: "\(lib.dataDir)/embedded-scheduler.sqlite", encoding: .isoLatin1)
        for id in ids { #expect(held.contains(id)) }
        _ = try await lib.run(["ring", ids[0], "--max-seconds", "1"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == damaged, "nothing writes into the damaged file")
    }

    @Test("ring still plays the voice file the scheduler names, and says the library is damaged", arguments: Damage.allCases)
    func ringsAnyway(_ damage: Damage) async throws {
        let (lib, ids) = try await damagedLibrary(damage)
        let voice = "\(lib.dataDir)/Sounds/\(ids[0]).m4a"
        let result = try await lib.run(["ring", ids[0], "--scheduled", "--sound", voice, "--max-seconds", "3", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "\(ids[0]).m4a\n")
        #expect(result.stderr.contains("the library cannot be read"), "said even under --quiet: \(result.stderr)")
        let played = try await IndependentMeasure.decodedSamples(lib.devices.played)
        let ringtone = try await IndependentMeasure.decodedSamples(voice)
        #expect(played.count == 3 * 44_100)
        #expect(correlation(played, Array(ringtone.prefix(played.count))) > 0.999)

        // Without a --sound, the default tone.
        let tone = try await lib.run(["ring", ids[1], "--max-seconds", "1", "-q"])
        #expect(tone.status == 0 && tone.stdout == "default-tone.caf\n", "\(tone.stderr)")
    }

    @Test(
        "repair restores the alarms from the backup, moves the damaged file aside, and the library works again",
        arguments: Damage.allCases)
    func repaired(_ damage: Damage) async throws {
        let (lib, ids) = try await damagedLibrary(damage)
        let repair = try await lib.run(["repair", "--json"])
        #expect(repair.status == 0, "\(repair.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: repair.stdoutData) as? [String: Any])
        #expect(report["wasHealthy"] as? Bool == false)
        #expect(report["alarms"] as? Int == 2 && report["clips"] as? Int == 1)
        let aside = try #require(report["movedAside"] as? String)
        #expect(FileManager.default.fileExists(atPath: aside))
        let listed = try await lib.ok(["alarm", "list", "--json"])
        let alarms = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        #expect(Set(alarms.compactMap { $0["id"] as? String }) == Set(ids))
        #expect(alarms.allSatisfy { ($0["sound"] as? String)?.hasSuffix(".m4a") == true }, "the voices are back")
        await #expect(try lib.ok(["scheduler", "list", "-q"]).split(separator: "\n").count == 2)
        let again = try await lib.run(["repair", "--json"])
        #expect(again.status == 0)
        #expect((try JSONSerialization.jsonObject(with: again.stdoutData) as? [String: Any])?["wasHealthy"] as? Bool == true, "\(again.stdout)")
    }

    @Test("A damaged scheduler list is made again from the library by the next command")
    func damagedSchedulerList() async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm()
        let list = "\(lib.dataDir)/embedded-scheduler.sqlite"
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: list + suffix) }
        try Damage.garbage.apply(to: list)
        let reconcile = try await lib.run(["reconcile", "--json"])
        #expect(reconcile.status == 0, "\(reconcile.stderr)")
        #expect(reconcile.stderr.contains("embedded scheduler's list was damaged"))
        await #expect(try lib.ok(["scheduler", "list", "-q"]).contains(id))
    }

    @Test("A row the schema would refuse (written around its checks) is damage: refused, then repaired without a crash")
    func corruptRow() async throws {
        let lib = try RingLibrary()
        let bad = try await lib.alarm()
        let good = try await lib.ok(["alarm", "add", "manifesto", "--at", "08:00", "--days", "tue", "-q"])
        try await ProcessRunner.mustRun(
            "/usr/bin/python3",
            [
                "-c",
                """
                import sqlite3, sys
                c = sqlite3.connect(sys.argv[1]); c.execute("PRAGMA ignore_check_constraints=ON")
                c.execute("UPDATE alarms SET hour='x' WHERE id=?", (sys.argv[2],)); c.commit()
                """, "\(lib.dataDir)/voicealarm.sqlite", bad,
            ])
        let list = try await lib.run(["alarm", "list", "--json"])
        #expect(list.status == 1 && list.stderr.contains("quick_check fails"), "\(list.stderr)")
        let repair = try await lib.run(["repair", "-q"])
        #expect(repair.status == 0, "\(repair.stderr)")
        let listed = try await lib.ok(["alarm", "list", "--json"])
        #expect(listed.contains(good) && listed.contains(bad), "the backup brings back what the bad row lost: \(listed)")
    }
}
