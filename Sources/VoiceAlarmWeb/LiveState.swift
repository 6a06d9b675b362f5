import Foundation
import VoiceAlarmFiles

/// The page's whole state in one document and its version, for the long poll (`GET
/// /api/state?after=VERSION`): every open tab waits on the same document, so the server's work
/// does not grow with the tabs.
///
/// The document is built again only when a cheap signal changes — the files a change anywhere
/// touches (the library's database and its write-ahead log, the daemon's list, the rings, a test
/// ring, whether a daemon runs) and the minute, which moves every `next` — or when it is older
/// than `lifetime` (the machine's examination is kept that long). Its version moves only when the
/// document itself differs, so a tab is answered only when there is something new to show.
///
/// ```swift
/// let live = LiveState(signals: { ChangeSignals.read(dataDirectory: dir, now: Date()) }, build: { try encodeState() })
/// let first = try live.current()                                   // at once
/// let next = try live.next(after: first.version, within: 25)       // nil: nothing changed in 25 s
/// ```
final class LiveState: Sendable {
    /// One state of the library and the machine: its version and the document (a JSON object).
    struct Snapshot: Sendable, Equatable {
        var version: String
        var document: Data
    }

    private struct Kept {
        var snapshot: Snapshot
        var signals: [String]
        var builtAt: Double
        var checkedAt: Double
        var generation: Int
    }

    /// How long a document answers for when no signal moved (the examination's lifetime).
    let lifetime: Double
    /// How often waiting requests look at the signals, in seconds.
    let checkEvery: Double
    private let signals: @Sendable () -> [String]
    private let build: @Sendable () throws -> Data
    private let clock: @Sendable () -> Double
    private let pause: @Sendable (Double) -> Void
    /// Different for every server run, so a version from before a restart is never taken for current.
    private let run = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    private let kept = Locked<Kept?>(nil)
    private let building = NSLock()
    private let closed = Locked(false)

    /// - Parameters:
    ///   - signals: what a change anywhere moves, read cheaply (`ChangeSignals`).
    ///   - build: the document, a JSON object, from the library (costly: opens it).
    ///   - clock: seconds of a monotonic clock; `pause` waits (both injected for tests).
    init(
        lifetime: Double = 15, checkEvery: Double = 0.5, signals: @escaping @Sendable () -> [String],
        build: @escaping @Sendable () throws -> Data,
        clock: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 },
        pause: @escaping @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }
    ) {
        self.lifetime = lifetime
        self.checkEvery = checkEvery
        self.signals = signals
        self.build = build
        self.clock = clock
        self.pause = pause
    }

    /// The current state: the kept one while its signals stand still and it is young, else built again.
    func current() throws -> Snapshot {
        try refresh(force: true)
    }

    /// The first state whose version is not `version`, waiting up to `seconds` for one; nil when
    /// nothing changed meanwhile, or the server is stopping (`close()`).
    func next(after version: String, within seconds: Double) throws -> Snapshot? {
        let deadline = clock() + seconds
        while !closed.withLock({ $0 }) {
            let snapshot = try refresh(force: false)
            if snapshot.version != version { return snapshot }
            let left = deadline - clock()
            guard left > 0 else { return nil }
            pause(min(checkEvery, left))
        }
        return nil
    }

    /// Ends every wait at once (the server stops: no request may hold it for a wait's length).
    func close() { closed.withLock { $0 = true } }

    /// The kept snapshot, or one built again when the signals moved or it aged. Waiting requests
    /// look at the signals at most once per `checkEvery` between them (`force` looks at once);
    /// one request builds while the others wait for its result.
    private func refresh(force: Bool) throws -> Snapshot {
        let now = clock()
        if !force, let kept = kept.withLock({ $0 }), now - kept.checkedAt < checkEvery { return kept.snapshot }
        building.lock()
        defer { building.unlock() }
        let signals = signals()
        let checked = clock()
        if var kept = kept.withLock({ $0 }), kept.signals == signals, checked - kept.builtAt < lifetime {
            kept.checkedAt = checked
            self.kept.withLock { $0 = kept }
            return kept.snapshot
        }
        let document = try build()
        precondition(document.first == UInt8(ascii: "{"), "the state is a JSON object")
        let earlier = kept.withLock { $0 }
        let generation = earlier.map { $0.snapshot.document == document ? $0.generation : $0.generation + 1 } ?? 1
        let snapshot = Snapshot(version: "\(run)-\(generation)", document: document)
        kept.withLock { $0 = Kept(snapshot: snapshot, signals: signals, builtAt: checked, checkedAt: checked, generation: generation) }
        return snapshot
    }
}
