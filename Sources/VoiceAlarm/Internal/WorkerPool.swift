import Foundation
import VoiceAlarmFiles

/// The one way VoiceAlarm does several things at once (a batch's ringtones, `build`'s alarms):
/// `workers` threads take the items `0..<count` one at a time, in order, until none is left.
///
/// Each worker first makes what it works with (its own store connection, or nothing) with `open`,
/// on its own thread, and uses it there only; a worker that cannot open takes no item, and the
/// others take its share. Threads of its own rather than `concurrentPerform`: `--jobs 4` means four
/// at once even on a two-core machine (Dispatch's width is the core count).
///
/// ```swift
/// let untaken = WorkerPool(workers: 4).run(alarms.count, open: { _ in try? opener.openBuilder() },
///                                          work: { builder, index in … })
/// ```
struct WorkerPool: Sendable {
    /// How many work at once (at least 1).
    let workers: Int

    init(workers: Int) {
        precondition(workers > 0, "at least one worker")
        self.workers = workers
    }

    /// Runs the items `0..<count` on `min(workers, count)` threads and returns when every worker
    /// has finished.
    /// - Parameters:
    ///   - open: a worker's context, made on its thread (given the worker's number); nil when it
    ///     cannot work (it takes nothing).
    ///   - work: one item, on the worker's thread, with its context.
    ///   - close: after a worker's last item, with its context.
    /// - Returns: the items no worker took (empty unless every worker failed to open), for the
    ///   caller to do itself.
    @discardableResult
    func run<Context>(
        _ count: Int, open: @escaping @Sendable (Int) -> Context?,
        work: @escaping @Sendable (Context, Int) -> Void,
        close: @escaping @Sendable (Context) -> Void = { _ in }
    ) -> Range<Int> {
        let next = Locked(0)
        let finished = DispatchGroup()
        for worker in 0..<min(workers, count) {
            finished.enter()
            Thread {
                defer { finished.leave() }
                guard let context = open(worker) else { return }
                while let item = next.withLock({ next -> Int? in
                    guard next < count else { return nil }
                    defer { next += 1 }
                    return next
                }) {
                    work(context, item)
                }
                close(context)
            }.start()
        }
        finished.wait()
        return next.withLock { min($0, count) }..<count
    }
}
