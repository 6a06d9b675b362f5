import Foundation
import Synchronization
import Testing
import VoiceAlarmCore
import VoiceAlarmScheduling

/// A wall clock that runs `speed` times faster than real time from `start`: what a night looks
/// like to the daemon in half a minute. Its sleeps are real sleeps, scaled.
private final class FastClock: WallClock, Sendable {
    let start: Date
    let speed: Double
    private let began = Date()

    init(start: Date, speed: Double) {
        self.start = start
        self.speed = speed
    }

    func now() -> Date { start.addingTimeInterval(Date().timeIntervalSince(began) * speed) }

    func sleep(until deadline: Date) async throws {
        let real = max(0, deadline.timeIntervalSince(now()) / speed)
        try await Task.sleep(nanoseconds: UInt64(real * 1e9))
    }
}

/// What rang, when (on the fast clock), and what was missed.
private final class Rings: Sendable {
    let rang = Mutex<[(UUID, due: Date, at: Date)]>([])
    let missed = Mutex<[UUID]>([])
}

/// Resident memory of this process, in kilobytes (`/proc/self/statm`).
private func residentKB() -> Int {
    let fields = ((try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "").split(separator: " ")
    return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

/// `make soak`: a night in half a minute. Off in `make test` (`VOICEALARM_SOAK=1` turns it on),
/// so the resident memory it measures is this process's alone.
@Suite("Soak: the daemon through a night", .enabled(if: ProcessInfo.processInfo.environment["VOICEALARM_SOAK"] == "1"))
struct DaemonSoakTests {
    @Test(
        "20 alarms over 8 hours on a clock 960 times fast: each rings exactly once, on time, none missed; memory stays flat",
        .timeLimit(.minutes(2)))
    func night() async throws {
        let start = Date(timeIntervalSince1970: 1_799_020_800)  // Monday 2027-01-04 00:00 UTC
        let clock = FastClock(start: start, speed: 960)
        var generator = SystemRandomNumberGenerator()
        let alarms = (0..<20).map { _ in
            ScheduledAlarm(
                id: UUID(),
                configuration: AlarmConfiguration(
                    schedule: .fixed(start.addingTimeInterval(Double.random(in: 600...(8 * 3600 - 600), using: &generator).rounded())),
                    sound: .default))
        }
        let rings = Rings()
        let daemon = AlarmDaemon(
            clock: clock, timeZone: TimeZone(identifier: "UTC")!, pollInterval: 15,
            alarms: { alarms },
            ring: { alarm, due in rings.rang.withLock { $0.append((alarm.id, due, clock.now())) } },
            missed: { alarm, _, _ in rings.missed.withLock { $0.append(alarm.id) } })
        let task = Task { try await daemon.run() }
        try await Task.sleep(for: .seconds(2))  // an hour in: warmed up
        let before = residentKB()
        while clock.now() < start.addingTimeInterval(8 * 3600 + 60) { try await Task.sleep(for: .milliseconds(200)) }
        let after = residentKB()
        task.cancel()

        let rang = rings.rang.withLock { $0 }
        #expect(rings.missed.withLock { $0 }.isEmpty)
        #expect(Set(rang.map(\.0)) == Set(alarms.map(\.id)) && rang.count == 20, "each exactly once: \(rang.count) rings")
        for ring in rang {
            let late = ring.at.timeIntervalSince(ring.due)
            #expect(late >= 0 && late < 60, "on time: \(late) s late")
        }
        #expect(after - before < 2_048, "resident memory grew \(after - before) KB (from \(before) KB)")
        let latest = rang.map { $0.at.timeIntervalSince($0.due) }.max() ?? 0
        FileHandle.standardError.write(
            Data(
                "soak: \(rang.count) rings, \(rings.missed.withLock { $0.count }) missed, latest \(String(format: "%.1f", latest)) s late (simulated); resident \(before) KB after an hour, \(after) KB after eight\n"
                    .utf8))
    }
}
