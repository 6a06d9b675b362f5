import Foundation

/// Two stages of a render on two threads: the caller's thread produces chunks of audio, a
/// thread of the pipe's own consumes them, at most `capacity` chunks apart — so a single render
/// uses a second core (filters on one, the encoder on the other) and memory stays a few chunks.
///
/// The first error of either side ends both: the producer's next `send` throws it, the consumer
/// is given no more chunks, and `run` throws it once the consumer has stopped.
final class ChunkPipe: @unchecked Sendable {
    /// Chunks in flight at most.
    static let capacity = 8

    private let condition = NSCondition()
    private var queue: [ArraySlice<Float>] = []
    private var closed = false
    private var failure: (any Error)?
    private var consumerDone = false

    private init() {}

    /// Runs `produce` on the caller's thread, handing each chunk it sends to `consume` on
    /// another thread, in order; returns when both are done.
    /// - Throws: the first error either side threw.
    static func run(
        produce: (_ send: (ArraySlice<Float>) throws -> Void) throws -> Void,
        consume: @escaping (ArraySlice<Float>) throws -> Void
    ) throws {
        let pipe = ChunkPipe()
        let box = UncheckedConsumer(consume)
        let thread = Thread { pipe.drain(into: box.body) }
        thread.stackSize = 1 << 20
        thread.start()
        do {
            try produce { try pipe.send($0) }
            pipe.close(nil)
        } catch {
            pipe.close(error)
        }
        try pipe.waitForConsumer()
    }

    private func send(_ chunk: ArraySlice<Float>) throws {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= Self.capacity && failure == nil { condition.wait() }
        if let failure { throw failure }
        queue.append(chunk)
        condition.broadcast()
    }

    private func close(_ error: (any Error)?) {
        condition.lock()
        if failure == nil, let error { failure = error }
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    private func drain(into consume: (ArraySlice<Float>) throws -> Void) {
        while true {
            condition.lock()
            while queue.isEmpty && !closed && failure == nil { condition.wait() }
            if failure != nil || queue.isEmpty {
                consumerDone = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let chunk = queue.removeFirst()
            condition.broadcast()
            condition.unlock()
            do {
                try consume(chunk)
            } catch {
                condition.lock()
                if failure == nil { failure = error }
                consumerDone = true
                condition.broadcast()
                condition.unlock()
                return
            }
        }
    }

    private func waitForConsumer() throws {
        condition.lock()
        defer { condition.unlock() }
        while !consumerDone { condition.wait() }
        if let failure { throw failure }
    }

    /// The consumer crosses to the pipe's thread; only that thread calls it, and the caller
    /// waits for it to finish before touching what it captured again.
    private struct UncheckedConsumer: @unchecked Sendable {
        let body: (ArraySlice<Float>) throws -> Void
        init(_ body: @escaping (ArraySlice<Float>) throws -> Void) { self.body = body }
    }
}
