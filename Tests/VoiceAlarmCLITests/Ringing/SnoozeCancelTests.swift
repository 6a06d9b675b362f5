import Foundation
import TestSupport
import Testing

/// `snooze --cancel` ("I'm up"): a snooze waiting is cancelled outside a ring, through the binary.
@Suite("I'm up: a waiting snooze cancelled outside a ring", .serialized)
struct SnoozeCancelTests {
    @Test("snooze --cancel takes the snooze out of the scheduler and says the alarm's own next ring; with none waiting, an error")
    func cancelWaiting() async throws {
        let lib = try RingLibrary()
        let clip = try await lib.ok(["clip", "import", "\(ProjectPaths.sampleAudio)/calm.wav", "-q"])
        _ = try await lib.ok(["manifesto", "set", clip, "-q"])
        let id = try await lib.ok(["alarm", "add", "manifesto", "--at", "06:45", "--days", "daily", "--snooze", "5", "-q"])
        let none = try await lib.run(["snooze", "--cancel"])
        #expect(none.status == 1 && none.stderr == "error: no snooze is waiting\n", "\(none.stderr)")

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
        #expect(await eventually(within: 10, every: 0.1) { !ring.isRunning }, "the snooze stopped the ring")

        let cancelled = try await lib.run(["--json", "snooze", "--cancel"])
        #expect(cancelled.status == 0, "\(cancelled.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(cancelled.stdout.utf8)) as? [String: Any])
        #expect(document["cancelled"] as? [String] == [id])
        #expect(cancelled.stderr.contains("Cancelled the snooze of alarm \(id): it rings next"), "\(cancelled.stderr)")
        let held = try #require(try JSONSerialization.jsonObject(with: Data(try await lib.ok(["scheduler", "list", "--json"]).utf8)) as? [[String: Any]])
        #expect(held.compactMap { $0["id"] as? String } == [id], "the alarm alone, its snooze gone: \(held)")
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(try await lib.ok(["alarm", "list", "--json"]).utf8)) as? [[String: Any]])
        #expect(listed.first?["snoozedUntil"] is NSNull)
        #expect(try await lib.run(["snooze", "--cancel"]).status == 1, "nothing left to cancel")
    }
}
