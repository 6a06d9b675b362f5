import Foundation
import VoiceAlarmFiles

/// One thread that serves every `SystemWallClock` sleep of the process: it waits on a
/// semaphore until the nearest deadline (a futex timeout on the monotonic clock) or until a new
/// request or a cancellation wakes it, then resumes the sleeps that are due.
final class SliceSleeper: Sendable {
    static let shared = SliceSleeper()

    private struct Request {
        let id: UInt64
        let until: DispatchTime
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var requests: [Request] = []
        /// Sleeps begun but not queued yet, and those of them cancelled before they were.
        var arriving: Set<UInt64> = []
        var cancelled: Set<UInt64> = []
        var nextID: UInt64 = 0
        var started = false
    }

    private let state = Locked(State())
    private let wake = DispatchSemaphore(value: 0)

    /// Returns after `seconds`, or at once when the calling task is cancelled.
    func sleep(for seconds: Double) async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            state.arriving.insert(state.nextID)
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let request = Request(id: id, until: .now() + seconds, continuation: continuation)
                let (startThread, cancelledAlready) = state.withLock { state -> (Bool, Bool) in
                    state.arriving.remove(id)
                    if state.cancelled.remove(id) != nil { return (false, true) }
                    state.requests.append(request)
                    defer { state.started = true }
                    return (!state.started, false)
                }
                if cancelledAlready { return continuation.resume() }
                if startThread { Thread.detachNewThread { self.serve() } }
                wake.signal()
            }
        } onCancel: {
            let request = state.withLock { state -> Request? in
                if let index = state.requests.firstIndex(where: { $0.id == id }) { return state.requests.remove(at: index) }
                if state.arriving.contains(id) { state.cancelled.insert(id) }  // not queued yet: it resumes as soon as it is
                return nil  // else: already resumed
            }
            request?.continuation.resume()
        }
    }

    /// The thread's loop: resume what is due, then wait for the nearest deadline or a wake-up.
    private func serve() {
        while true {
            let now = DispatchTime.now()
            let (due, next) = state.withLock { state -> ([Request], DispatchTime?) in
                let due = state.requests.filter { $0.until <= now }
                state.requests.removeAll { $0.until <= now }
                return (due, state.requests.map(\.until).min())
            }
            for request in due { request.continuation.resume() }
            _ = wake.wait(timeout: next ?? .distantFuture)
        }
    }
}
