import Foundation
import Testing
import VoiceAlarmFiles

@testable import VoiceAlarmWeb

/// The long poll's rules with a fake clock, signals and document: what makes the document be
/// built again, when its version moves, and that a wait ends when asked to.
@Suite("The page's live state: built when a signal moves, versioned by what it says")
struct LiveStateTests {
    /// A world the state watches: signals, a document, a clock that a pause moves.
    final class World: Sendable {
        let signals = Locked(["db:1", "minute:1"])
        let document = Locked(#"{"alarms":[]}"#)
        let builds = Locked(0)
        let time = Locked(0.0)
        /// Called at each pause, after the clock moved: the test changes the world here.
        let onPause = Locked<(@Sendable (Double) -> Void)?>(nil)

        func state(lifetime: Double = 15) -> LiveState {
            LiveState(
                lifetime: lifetime, checkEvery: 0.5, signals: { self.signals.withLock { $0 } },
                build: {
                    self.builds.withLock { $0 += 1 }
                    return Data(self.document.withLock { $0 }.utf8)
                },
                clock: { self.time.withLock { $0 } },
                pause: { seconds in
                    let now = self.time.withLock { time in
                        time += seconds
                        return time
                    }
                    self.onPause.withLock { $0 }?(now)
                })
        }
    }

    @Test("signals that stand still build nothing again; a moved signal builds, and the version moves only with the document")
    func buildsOnSignals() throws {
        let world = World()
        let live = world.state()
        let first = try live.current()
        #expect(try live.current() == first)
        #expect(world.builds.withLock { $0 } == 1)
        world.signals.withLock { $0[0] = "db:2" }  // a write that changed nothing shown (a device seen)
        #expect(try live.current().version == first.version)
        #expect(world.builds.withLock { $0 } == 2)
        world.signals.withLock { $0[0] = "db:3" }
        world.document.withLock { $0 = #"{"alarms":[1]}"# }
        let second = try live.current()
        #expect(second.version != first.version)
        #expect(String(decoding: second.document, as: UTF8.self) == #"{"alarms":[1]}"#)
    }

    @Test("a state older than its lifetime is built again though no signal moved (the examination ages)")
    func agesOut() throws {
        let world = World()
        let live = world.state(lifetime: 15)
        _ = try live.current()
        world.time.withLock { $0 = 14.9 }
        _ = try live.current()
        #expect(world.builds.withLock { $0 } == 1)
        world.time.withLock { $0 = 15.1 }
        _ = try live.current()
        #expect(world.builds.withLock { $0 } == 2)
    }

    @Test("a wait answers the change made while it waits, looking every half second, and nil when nothing changed")
    func waits() throws {
        let world = World()
        let live = world.state()
        let first = try live.current()
        world.onPause.withLock {
            $0 = { now in
                if now >= 3 {
                    world.signals.withLock { $0[0] = "db:9" }
                    world.document.withLock { $0 = #"{"alarms":["new"]}"# }
                }
            }
        }
        let changed = try #require(try live.next(after: first.version, within: 25))
        #expect(String(decoding: changed.document, as: UTF8.self).contains("new"))
        #expect(world.time.withLock { $0 } == 3)
        world.onPause.withLock { $0 = nil }
        let start = world.time.withLock { $0 }
        #expect(try live.next(after: changed.version, within: 25) == nil)
        #expect(world.time.withLock { $0 } - start == 25)
        // A version the server never gave (an earlier run's) is answered at once.
        #expect(try live.next(after: "earlier-1", within: 25) == changed)
    }

    @Test("close() ends every wait at once: a stopping server is not held for a wait's length")
    func closes() throws {
        let world = World()
        let live = world.state()
        let first = try live.current()
        world.onPause.withLock { $0 = { now in if now >= 2 { live.close() } } }
        #expect(try live.next(after: first.version, within: 25) == nil)
        #expect(world.time.withLock { $0 } == 2)
    }
}
