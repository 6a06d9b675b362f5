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

/// The order sleeps finished in.
private final class Finished: Sendable {
    let ids = Mutex<[Int]>([])
}

@Suite("The system clock's sleeps: slices, cancellation, many at once", .timeLimit(.minutes(1)))
struct SystemWallClockTests {
    @Test("A sleep ends at its deadline")
    func deadline() async throws {
        let took = try await timed { try await SystemWallClock().sleep(until: Date().addingTimeInterval(0.3)) }
        #expect(took >= 0.29 && took < 1.5, "\(took) s")
    }

    @Test("A sleep never lasts longer than one slice, however far the deadline")
    func slice() async throws {
        let took = try await timed { try await SystemWallClock(slice: 0.2).sleep(until: Date().addingTimeInterval(3600)) }
        #expect(took >= 0.19 && took < 1.5, "\(took) s")
    }

    @Test("Cancelling a sleeping task wakes it at once with CancellationError")
    func cancelWhileSleeping() async throws {
        let task = Task { try await SystemWallClock(slice: 30).sleep(until: Date().addingTimeInterval(30)) }
        try await Task.sleep(for: .milliseconds(100))
        let took = await timed {
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
        }
        #expect(took < 1.5, "\(took) s")
    }

    @Test("A task cancelled before it sleeps does not sleep")
    func cancelledBefore() async throws {
        let started = Date()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await SystemWallClock(slice: 30).sleep(until: Date().addingTimeInterval(30))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(Date().timeIntervalSince(started) < 1.5)
    }

    @Test("Many sleeps at once each end at their own deadline, in order")
    func many() async throws {
        let order = Finished()
        let start = Date()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in (0..<20).reversed() {
                group.addTask {
                    try await SystemWallClock().sleep(until: start.addingTimeInterval(0.05 + Double(i) * 0.03))
                    order.ids.withLock { $0.append(i) }
                }
            }
            try await group.waitForAll()
        }
        #expect(order.ids.withLock { $0 } == Array(0..<20))
        #expect(Date().timeIntervalSince(start) < 3)
    }
}
