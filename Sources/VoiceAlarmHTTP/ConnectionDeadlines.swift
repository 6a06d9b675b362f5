/// Which connections to cut, so that clients who trickle their requests (a header line every few
/// seconds, a body that never ends) cannot hold the server while the owner's phone waits to
/// press Stop.
///
/// A connection is *waiting* from the moment it opens (and again after each answer) until its
/// request head is whole, and *sending* while a small in-memory body arrives; both have a
/// deadline counted from their start, whatever trickles in meanwhile. Waiting and sending
/// connections are counted apart from the ones being answered: past `waitingPerAddress` from one
/// address, or `waiting` in all, the oldest such connection is cut to make room for the new one.
/// A phone's request is whole within milliseconds of its connection, so it always gets in; an
/// attacker can only push out its own oldest stalls. Connections being answered (a paired
/// device's upload, a rebuild) are not counted here: every request that is not a paired device's
/// is answered at once and its connection closed.
///
/// A pure value: times are seconds of a monotonic clock the caller reads, so the rules are
/// tested without a server.
///
/// ```swift
/// var deadlines = ConnectionDeadlines()
/// deadlines.opened(7, address: "127.0.0.1", at: 0)    // [] — nothing to cut
/// deadlines.overdue(at: 5.5)                          // [7] — no whole head in 5 s
/// ```
package struct ConnectionDeadlines: Sendable {
    /// The deadlines and how many unfinished requests may wait.
    package struct Limits: Sendable, Equatable {
        /// Seconds from a connection's start (or its previous answer) to a whole request head.
        package var head: Double = 5
        /// Seconds from a whole head to a whole small body (JSON, at most 64 KB).
        package var body: Double = 10
        /// Waiting or sending connections in all.
        package var waiting = 48
        /// Waiting or sending connections from one address.
        package var waitingPerAddress = 8
        package init() {}
    }

    private enum Phase: Equatable {
        case waiting(since: Double)
        case sending(since: Double)
        case answering
        case cut
    }

    private struct Connection {
        var address: String
        var phase: Phase
        /// When the current phase began, for "oldest first".
        var order: UInt64
    }

    private var connections: [UInt: Connection] = [:]
    private var counter: UInt64 = 0
    package let limits: Limits

    package init(limits: Limits = Limits()) { self.limits = limits }

    /// A connection from `address` opened: it waits for its head. Returns the connections to cut
    /// to keep within the limits (never the new one).
    package mutating func opened(_ id: UInt, address: String, at now: Double) -> [UInt] {
        connections[id] = Connection(address: address, phase: .waiting(since: now), order: next())
        var cut: [UInt] = []
        while unfinished(from: address).count > limits.waitingPerAddress, let oldest = oldest(of: unfinished(from: address), except: id) {
            cut.append(mark(oldest))
        }
        while unfinished(from: nil).count > limits.waiting, let oldest = oldest(of: unfinished(from: nil), except: id) {
            cut.append(mark(oldest))
        }
        return cut
    }

    /// Its request head is whole; `smallBody` when a body still follows into memory (its own
    /// deadline), else the request is being answered.
    package mutating func headArrived(_ id: UInt, smallBody: Bool, at now: Double) {
        guard let connection = connections[id], connection.phase != .cut else { return }
        let order = next()
        connections[id]?.phase = smallBody ? .sending(since: now) : .answering
        connections[id]?.order = order
    }

    /// Its body is whole (or is streamed to a file for a paired device): it is being answered.
    package mutating func bodyArrived(_ id: UInt) {
        guard let connection = connections[id], connection.phase != .cut else { return }
        connections[id]?.phase = .answering
    }

    /// Its answer went: it waits for a next request (keep-alive) under the head deadline again.
    package mutating func answered(_ id: UInt, at now: Double) {
        guard let connection = connections[id], connection.phase != .cut else { return }
        let order = next()
        connections[id]?.phase = .waiting(since: now)
        connections[id]?.order = order
    }

    /// The connection is gone.
    package mutating func closed(_ id: UInt) { connections[id] = nil }

    /// Connections past their deadline at `now`, to cut (each is returned once).
    package mutating func overdue(at now: Double) -> [UInt] {
        let late = connections.filter { _, connection in
            switch connection.phase {
            case .waiting(let since): now - since > limits.head
            case .sending(let since): now - since > limits.body
            case .answering, .cut: false
            }
        }.map(\.key)
        return late.map { mark($0) }
    }

    /// How many connections wait for a head or a small body (for a test or a log line).
    package var unfinishedCount: Int { unfinished(from: nil).count }

    private func unfinished(from address: String?) -> [(key: UInt, value: Connection)] {
        connections.filter { _, connection in
            switch connection.phase {
            case .waiting, .sending: address.map { $0 == connection.address } ?? true
            case .answering, .cut: false
            }
        }.map { ($0.key, $0.value) }
    }

    private func oldest(of candidates: [(key: UInt, value: Connection)], except id: UInt) -> UInt? {
        candidates.filter { $0.key != id }.min { $0.value.order < $1.value.order }?.key
    }

    private mutating func mark(_ id: UInt) -> UInt {
        connections[id]?.phase = .cut
        return id
    }

    private mutating func next() -> UInt64 {
        counter += 1
        return counter
    }
}
