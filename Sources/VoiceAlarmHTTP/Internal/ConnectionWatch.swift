import Dispatch
import Glibc
import VoiceAlarmFiles

/// `ConnectionDeadlines` applied to a running server's sockets: told of every connection as it
/// opens and closes and of every request's progress, it shuts down the socket of a connection
/// the rules cut (libmicrohttpd's thread then sees it end and closes it), checking the deadlines
/// twice a second. A cut is abortive (`SO_LINGER` 0): the close resets the connection and drops
/// what its client left unread, instead of the kernel holding it for a reader that never reads. A socket is only ever shut down between libmicrohttpd's "opened" and
/// "closed" notices, under the same lock as they are, so it is never a descriptor reused since.
/// (Unchecked: the timer is set up once in `init` and only cancelled after.)
final class ConnectionWatch: @unchecked Sendable {
    private struct State {
        var deadlines: ConnectionDeadlines
        var sockets: [UInt: Int32] = [:]
    }

    private let state: Locked<State>
    private let started = ContinuousClock.now
    private let timer: DispatchSourceTimer

    init(limits: ConnectionDeadlines.Limits) {
        state = Locked(State(deadlines: ConnectionDeadlines(limits: limits)))
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "voicealarm.http.deadlines"))
        timer.schedule(deadline: .now() + 0.5, repeating: 0.5, leeway: .milliseconds(100))
        timer.setEventHandler { [weak self] in self?.check() }
        timer.resume()
    }

    /// Stops checking (the server is stopping).
    func stop() { timer.cancel() }

    func opened(_ id: UInt, socket: Int32, address: String) {
        let now = seconds()
        state.withLock { state in
            state.sockets[id] = socket
            Self.cut(state.deadlines.opened(id, address: address, at: now), in: state)
        }
    }

    func headArrived(_ id: UInt, smallBody: Bool) {
        let now = seconds()
        state.withLock { $0.deadlines.headArrived(id, smallBody: smallBody, at: now) }
    }

    func bodyArrived(_ id: UInt) { state.withLock { $0.deadlines.bodyArrived(id) } }

    /// Its answer of `bytes` is about to go out.
    func answerStarted(_ id: UInt, bytes: Int) {
        let now = seconds()
        state.withLock { state in Self.cut(state.deadlines.answerStarted(id, bytes: bytes, at: now), in: state) }
    }

    func answered(_ id: UInt) {
        let now = seconds()
        state.withLock { $0.deadlines.answered(id, at: now) }
    }

    func closed(_ id: UInt) {
        state.withLock { state in
            state.deadlines.closed(id)
            state.sockets[id] = nil
        }
    }

    private func check() {
        let now = seconds()
        state.withLock { state in Self.cut(state.deadlines.overdue(at: now), in: state) }
    }

    private static func cut(_ ids: [UInt], in state: State) {
        for id in ids {
            guard let socket = state.sockets[id], socket >= 0 else { continue }
            var abort = linger(l_onoff: 1, l_linger: 0)
            _ = setsockopt(socket, SOL_SOCKET, SO_LINGER, &abort, socklen_t(MemoryLayout<linger>.size))
            _ = shutdown(socket, Int32(SHUT_RDWR))
        }
    }

    private func seconds() -> Double {
        let elapsed = ContinuousClock.now - started
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
