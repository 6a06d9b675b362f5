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

/// Runs the tests' tasks on a queue of their own: the rest of the test run blocks the shared
/// cooperative threads for seconds at a time (processes, ffmpeg), and a woken sleep must not
/// wait for one of them to be measured.
private final class QueueExecutor: TaskExecutor {
    static let shared = QueueExecutor()
    private let queue = DispatchQueue(label: "system-wall-clock-tests")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

@Suite("The system clock's sleeps: slices, cancellation, many at once", .timeLimit(.minutes(1)))
struct SystemWallClockTests {
    @Test("A sleep ends at its deadline, never before")
    func deadline() async throws {
        try await withTaskExecutorPreference(QueueExecutor.shared) {
            let took = try await timed { try await SystemWallClock().sleep(until: Date().addingTimeInterval(0.3)) }
            #expect(took >= 0.29 && took < 10, "\(took) s")
        }
    }

    @Test("A sleep lasts one slice, not until a deadline an hour away")
    func slice() async throws {
        try await withTaskExecutorPreference(QueueExecutor.shared) {
            let took = try await timed { try await SystemWallClock(slice: 0.2).sleep(until: Date().addingTimeInterval(3600)) }
            #expect(took >= 0.19 && took < 10, "\(took) s")
        }
    }

    @Test("Cancelling a sleeping task wakes it at once with CancellationError")
    func cancelWhileSleeping() async throws {
        let task = Task(executorPreference: QueueExecutor.shared) {
            try await SystemWallClock(slice: 600).sleep(until: Date().addingTimeInterval(600))
        }
        try await Task.sleep(for: .milliseconds(100))
        let took = await timed {
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
        }
        #expect(took < 10, "\(took) s")
    }

    @Test("A task cancelled before it sleeps does not sleep")
    func cancelledBefore() async throws {
        let started = Date()
        let task = Task(executorPreference: QueueExecutor.shared) {
            withUnsafeCurrentTask { $0?.cancel() }
            try await SystemWallClock(slice: 600).sleep(until: Date().addingTimeInterval(600))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test("Many sleeps at once all end, each at its own deadline, never before")
    func many() async throws {
        try await withTaskExecutorPreference(QueueExecutor.shared) {
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
            #expect(Date().timeIntervalSince(start) < 10)
        }
    }
}
