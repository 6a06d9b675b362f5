import Foundation
import Synchronization
import Testing
import VoiceAlarmScheduling

/// Seconds `body` took.
private func timed(_ body: () async throws -> Void) async rethrows -> Double {
    let start = Date()
    try await body()
    return Date().timeIntervalSince(start)
}

/// When each sleep ended.
private final class Ends: Sendable {
    let times = Mutex<[Int: Date]>([:])
}

// These tests run beside suites that keep the cooperative pool busy, so a woken task may wait
// seconds for a thread: they check what a sleep does (never early, sliced, cancellable), with
// bounds far below what a broken clock would take (an hour, ten minutes), never tight latencies.
@Suite("The system clock's sleeps: slices, cancellation, many at once", .timeLimit(.minutes(1)))
struct SystemWallClockTests {
    @Test("A sleep never ends before its deadline")
    func deadline() async throws {
        let took = try await timed { try await SystemWallClock().sleep(until: Date().addingTimeInterval(0.3)) }
        #expect(took >= 0.29, "\(took) s")
    }

    @Test("A sleep lasts one slice, not until a deadline an hour away")
    func slice() async throws {
        let took = try await timed { try await SystemWallClock(slice: 0.2).sleep(until: Date().addingTimeInterval(3600)) }
        #expect(took >= 0.19 && took < 45, "\(took) s")
    }

    @Test("Cancelling a sleeping task wakes it with CancellationError, long before its ten-minute deadline")
    func cancelWhileSleeping() async throws {
        let task = Task { try await SystemWallClock(slice: 600).sleep(until: Date().addingTimeInterval(600)) }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test("A task cancelled before it sleeps does not sleep out its ten minutes")
    func cancelledBefore() async throws {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await SystemWallClock(slice: 600).sleep(until: Date().addingTimeInterval(600))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test("Many sleeps at once all end, none before its own deadline")
    func many() async throws {
        let ends = Ends()
        let start = Date()
        let deadlines = (0..<20).map { start.addingTimeInterval(0.05 + Double($0) * 0.03) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (i, deadline) in deadlines.enumerated().reversed() {
                group.addTask {
                    try await SystemWallClock().sleep(until: deadline)
                    ends.times.withLock { $0[i] = Date() }
                }
            }
            try await group.waitForAll()
        }
        let times = ends.times.withLock { $0 }
        #expect(times.count == 20)
        for (i, deadline) in deadlines.enumerated() { #expect(times[i].map { $0 >= deadline } == true, "sleep \(i) ended early") }
    }
}
