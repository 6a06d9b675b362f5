/// Which connections to cut, so that clients who trickle their requests (a header line every few
/// seconds, a body that never ends) or read their answers a byte at a time cannot hold the server
/// while the owner's phone waits to press Stop.
///
/// A connection is *waiting* from the moment it opens (and again after each answer) until its
/// request head is whole, *sending* while a small in-memory body arrives, and *receiving* while
/// its answer goes out; each has a deadline counted from its start, whatever trickles meanwhile:
/// 5 s for a head, 10 s more for a small body, and for an answer 5 s plus its size at 32 KiB/s
/// (a 263 KB icon: 13 s). These connections are counted together: past `heldPerAddress` from
/// one address, or `held` in all (then from the address holding the most), the oldest of them is
/// cut to make room for the newer one (the oldest receiving an answer first: it was served, a
/// request not yet read was not). A connection in its first second (`grace`: its TLS handshake
/// and head on a busy machine) is never cut for room, so a flood of new connections from the
/// owner's own address cannot push out the owner's request before it is read. A phone's answer
/// (a status, a Stop) goes out in one write, so it always gets in; an attacker can only push out
/// its own oldest stalls. Connections whose request is being worked on (a paired device's upload, a
/// rebuild) are not counted here: every request that is not a paired device's is answered at
/// once, and its answer is counted from then on.
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
    /// The deadlines, and how many connections may wait for a request or receive an answer.
    package struct Limits: Sendable, Equatable {
        /// Seconds from a connection's start (or its previous answer) to a whole request head.
        package var head: Double = 5
        /// Seconds from a whole head to a whole small body (JSON, at most 64 KB).
        package var body: Double = 10
        /// Seconds an answer may take whatever its size; its size at `answerRate` is added.
        package var answer: Double = 5
        /// The slowest an answer may be read on average, in bytes a second (32 KiB/s, 256 kbit/s).
        package var answerRate: Double = 32 * 1024
        /// Connections waiting for a head or small body, or receiving an answer, in all.
        package var held = 48
        /// Such connections from one address.
        package var heldPerAddress = 8
        /// Seconds a new connection is spared while an older one can go instead: time for its TLS
        /// handshake and its head on a busy machine, so a flood from the owner's own address
        /// cannot push out the owner's request before it is read.
        package var grace: Double = 1
        package init() {}

        /// Seconds an answer of `bytes` may take to go out whole.
        package func answerDeadline(bytes: Int) -> Double { answer + Double(max(bytes, 0)) / answerRate }
    }

    private enum Phase: Equatable {
        case waiting(since: Double)
        case sending(since: Double)
        /// Its request is being worked on (a handler runs, a paired device's upload arrives).
        case answering
        /// Its answer goes out, due whole by `until`.
        case receiving(until: Double)
        case cut
    }

    private struct Connection {
        var address: String
        var phase: Phase
        /// When the current phase began, for "oldest first".
        var order: UInt64
        /// When it opened (seconds of the caller's clock).
        var opened: Double
    }

    private var connections: [UInt: Connection] = [:]
    private var counter: UInt64 = 0
    package let limits: Limits

    package init(limits: Limits = Limits()) { self.limits = limits }

    /// A connection from `address` opened: it waits for its head. Returns the connections to cut
    /// to keep within the limits (never the new one).
    package mutating func opened(_ id: UInt, address: String, at now: Double) -> [UInt] {
        connections[id] = Connection(address: address, phase: .waiting(since: now), order: next(), opened: now)
        return crowdedOut(by: id, at: now)
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

    /// Its answer of `bytes` starts to go out: it is counted again, due whole within
    /// `Limits.answerDeadline(bytes:)`. Returns the connections to cut to keep within the limits
    /// (never this one).
    package mutating func answerStarted(_ id: UInt, bytes: Int, at now: Double) -> [UInt] {
        guard let connection = connections[id], connection.phase != .cut else { return [] }
        let order = next()
        connections[id]?.phase = .receiving(until: now + limits.answerDeadline(bytes: bytes))
        connections[id]?.order = order
        return crowdedOut(by: id, at: now)
    }

    /// Its answer went whole: it waits for a next request (keep-alive) under the head deadline again.
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
            case .receiving(let until): now > until
            case .answering, .cut: false
            }
        }.map(\.key)
        return late.map { mark($0) }
    }

    /// How many connections wait for a head or a small body, or receive an answer (for a test or
    /// a log line).
    package var heldCount: Int { held(from: nil).count }

    /// Cuts the oldest held connections, of `id`'s address and then of all, past the limits.
    private mutating func crowdedOut(by id: UInt, at now: Double) -> [UInt] {
        guard let address = connections[id]?.address else { return [] }
        var cut: [UInt] = []
        while held(from: address).count > limits.heldPerAddress, let oldest = oldest(of: held(from: address), except: id, at: now) {
            cut.append(mark(oldest))
        }
        while held(from: nil).count > limits.held, let oldest = mostCrowded(except: id, at: now) {
            cut.append(mark(oldest))
        }
        return cut
    }

    /// The one to cut for room in all: from the address that holds the most (a flood's, never a
    /// bystander's), as `oldest` chooses within it; none while all of that address's are in
    /// their grace.
    private func mostCrowded(except id: UInt, at now: Double) -> UInt? {
        let counts = Dictionary(grouping: held(from: nil), by: \.value.address).mapValues(\.count)
        guard let most = counts.values.max() else { return nil }
        for address in counts.filter({ $0.value == most }).keys.sorted() {
            if let victim = oldest(of: held(from: address), except: id, at: now) { return victim }
        }
        return nil
    }

    private func held(from address: String?) -> [(key: UInt, value: Connection)] {
        connections.filter { _, connection in
            switch connection.phase {
            case .waiting, .sending, .receiving: address.map { $0 == connection.address } ?? true
            case .answering, .cut: false
            }
        }.map { ($0.key, $0.value) }
    }

    /// The one to cut among `candidates`, of those open past the grace (none while every one is
    /// in its grace): the oldest receiving an answer (it was served; a request not yet read was
    /// not, and may be the owner's, read late on a busy machine), else the oldest. A flood of
    /// new connections from the owner's address can so hold at most a second's worth more than
    /// the limit (each is cut once its grace ends, and by its deadline), never push out the
    /// owner's before its request is read.
    private func oldest(of candidates: [(key: UInt, value: Connection)], except id: UInt, at now: Double) -> UInt? {
        let others = candidates.filter { $0.key != id }
        let settled = others.filter { now - $0.value.opened >= limits.grace }
        let served = settled.filter { if case .receiving = $0.value.phase { true } else { false } }
        return (served.isEmpty ? settled : served).min { $0.value.order < $1.value.order }?.key
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
