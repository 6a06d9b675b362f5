import Foundation
import TestSupport
import Testing

/// Runs a command that must succeed (mount, umount, fallocate).
private func must(_ arguments: [String]) async throws {
    try await ProcessRunner.mustRun("/usr/bin/env", arguments)
}

/// Bytes free on the file system holding `path`.
private func freeBytes(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfFileSystem(forPath: path)
    return (attributes[.systemFreeSize] as? NSNumber)?.intValue ?? 0
}

/// A library whose data dir is its own small tmpfs (root, as on these machines), unmounted at the end.
private final class MountedLibrary {
    let lib: RingLibrary
    init(megabytes: Int) async throws {
        lib = try RingLibrary()
        try FileManager.default.createDirectory(atPath: lib.dataDir, withIntermediateDirectories: true)
        try await must(["mount", "-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0700", "tmpfs", lib.dataDir])
    }
    deinit { unmountLazily(lib.dataDir) }
}

@Suite(
    "The alarm rings and nothing good is lost when the machine is hostile: full disk, read-only, locked",
    .serialized, .timeLimit(.minutes(1)))
struct HostileMachineTests {
    @Test("A full disk during a settings change: exit 1 with the reason, every voice file kept, the rebuild owed and caught up")
    func fullDisk() async throws {
        let (mounted, ids) = try await Self.settingsChangeOnFullDisk()
        let lib = mounted.lib
        let listed = try await lib.ok(["alarm", "list", "--json", "-q"])
        #expect(listed.components(separatedBy: ".m4a").count - 1 == 2, "both alarms still play their voice: \(listed)")
        let ring = try await lib.run(["ring", ids[0], "--max-seconds", "1", "-q"])
        #expect(ring.status == 0 && ring.stdout == "\(ids[0]).m4a\n", "\(ring.stderr)")

        try FileManager.default.removeItem(atPath: "\(lib.dataDir)/filler")
        let reconcile = try await lib.run(["reconcile", "-q"])
        #expect(reconcile.status == 0, "\(reconcile.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: "\(lib.dataDir)/Sounds").sorted()
        #expect(names == ids.map { "\($0).caf" }.sorted(), "the owed rebuilds caught up: \(names)")
    }

    @Test("A rebuild owed whose mark the full disk refused too is still caught up: the file is not what the settings build")
    func owedWithoutMark() async throws {
        let (mounted, ids) = try await Self.settingsChangeOnFullDisk()
        let lib = mounted.lib
        try FileManager.default.removeItem(atPath: "\(lib.dataDir)/filler")
        // The mark a full disk can refuse as well, erased by another SQLite (Python's module).
        try await ProcessRunner.mustRun(
            ProjectPaths.python,
            [
                "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('UPDATE alarms SET rebuild_pending = NULL'); c.commit()",
                "\(lib.dataDir)/voicealarm.sqlite",
            ])
        let reconcile = try await lib.run(["reconcile", "-q"])
        #expect(reconcile.status == 0, "\(reconcile.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: "\(lib.dataDir)/Sounds").sorted()
        #expect(names == ids.map { "\($0).caf" }.sorted(), "the rebuilds caught up without their marks: \(names)")
        for id in ids {
            let probed = try await IndependentMeasure.probe("\(lib.dataDir)/Sounds/\(id).caf")
            #expect(probed.formatName == "caf", "\(probed)")
        }
        let again = try await lib.run(["reconcile", "-q"])
        #expect(again.status == 0 && again.stdout.isEmpty, "a second reconcile has nothing to do: \(again.stdout) \(again.stderr)")
    }

    /// Two voice alarms on a 24 MB tmpfs library, the disk filled but for 400 KB, then the format
    /// changed to caf: the change fails and keeps both m4a files (checked here).
    private static func settingsChangeOnFullDisk() async throws -> (MountedLibrary, [String]) {
        let mounted = try await MountedLibrary(megabytes: 24)
        let lib = mounted.lib
        let clip = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/manifesto.flac", "-q"])
        _ = try await lib.ok(["manifesto", "set", clip, "-q"])
        let ids = try await ["07:00", "08:00"].asyncMap { try await lib.ok(["alarm", "add", "manifesto", "--at", $0, "--days", "mon", "-q"]) }
        let before = try ids.map { try Data(contentsOf: URL(fileURLWithPath: "\(lib.dataDir)/Sounds/\($0).m4a")) }
        // Leave about 400 KB: the library opens and writes its records, a 29-second caf (2.5 MB) cannot be written.
        try await must(["fallocate", "-l", "\(try freeBytes(lib.dataDir) - 400_000)", "\(lib.dataDir)/filler"])

        let change = try await lib.run(["settings", "format", "caf"])
        #expect(change.status == 1, "\(change.stderr)")
        #expect(change.stderr.contains("could not be rebuilt") && change.stderr.contains("keeps its current voice file"), "\(change.stderr)")
        let after = try ids.map { try Data(contentsOf: URL(fileURLWithPath: "\(lib.dataDir)/Sounds/\($0).m4a")) }
        #expect(after == before, "no valid voice file is deleted by a full disk")
        return (mounted, ids)
    }

    @Test("A read-only data dir: the ring plays the voice file, read without writing, and says so")
    func readOnlyDataDir() async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm()
        try await must(["mount", "--bind", lib.dataDir, lib.dataDir])
        defer { unmountLazily(lib.dataDir) }
        try await must(["mount", "-o", "remount,bind,ro", lib.dataDir])

        let result = try await lib.run(["ring", id, "--max-seconds", "2", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "\(id).m4a\n")
        #expect(result.stderr.contains("cannot be opened to write"), "\(result.stderr)")
        let played = try await IndependentMeasure.decodedSamples(lib.devices.played)
        let ringtone = try await IndependentMeasure.decodedSamples("\(lib.dataDir)/Sounds/\(id).m4a")
        #expect(played.count == 2 * 44_100)
        #expect(correlation(played, Array(ringtone.prefix(played.count))) > 0.999)
        let list = try await lib.run(["alarm", "list"])
        #expect(list.status == 1 && list.stderr.hasPrefix("error: ") && list.stderr.split(separator: "\n").count == 1, "\(list.stderr)")
    }

    @Test("A database another process holds in exclusive locking mode: the ring waits briefly, then rings from the file")
    func lockedDatabase() async throws {
        let lib = try RingLibrary()
        let id = try await lib.alarm()
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = [
            "-c",
            """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute("PRAGMA locking_mode=EXCLUSIVE"); c.execute("BEGIN EXCLUSIVE")
            print("held", flush=True); time.sleep(60)
            """, "\(lib.dataDir)/voicealarm.sqlite",
        ]
        let pipe = Pipe()
        holder.standardOutput = pipe
        try holder.run()
        // SIGKILL: SIGTERM may be ignored, inherited from the runner.
        try await holder.killed {
            _ = await pipe.fileHandleForReading.text(within: 30) { $0.contains("held") }

            let start = Date()
            let result = try await lib.run(["ring", id, "--max-seconds", "1", "-q"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "\(id).m4a\n")
            #expect(Date().timeIntervalSince(start) < 10, "the ring waited \(Date().timeIntervalSince(start)) s")
        }
    }
}
