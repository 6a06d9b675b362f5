import Testing
import VoiceAlarmHTTP

@Suite("Connection deadlines: stalls and slow readers are cut, the oldest first, never a request being worked on")
struct ConnectionDeadlinesTests {
    @Test("A head not whole within 5 s is cut, however much trickled in; a small body has 10 s more")
    func deadlines() {
        var deadlines = ConnectionDeadlines()
        #expect(deadlines.opened(1, address: "127.0.0.1", at: 0) == [])
        #expect(deadlines.opened(2, address: "127.0.0.1", at: 0) == [])
        #expect(deadlines.opened(3, address: "127.0.0.1", at: 0) == [])
        deadlines.headArrived(2, smallBody: true, at: 1)
        deadlines.headArrived(3, smallBody: false, at: 1)
        #expect(deadlines.overdue(at: 4.9) == [])
        #expect(deadlines.overdue(at: 5.1) == [1])
        #expect(deadlines.overdue(at: 6) == [], "each is cut once")
        #expect(deadlines.overdue(at: 11.1) == [2])
        #expect(deadlines.overdue(at: 1_000) == [], "a request being answered (an upload, a rebuild) has no deadline here")
        deadlines.answered(3, at: 1_000)
        #expect(deadlines.overdue(at: 1_005.1) == [3], "kept alive, it waits for its next head under the same deadline")
    }

    @Test(
        "Past 8 unfinished from one address, that address's oldest goes; past 48 in all, the most crowded address's oldest; never the new one",
        arguments: [(1, 8, 0), (1, 9, 1), (1, 20, 12), (4, 8, 0), (6, 8, 0), (7, 8, 8)])
    func crowding(addresses: Int, each: Int, cut: Int) {
        var deadlines = ConnectionDeadlines()
        var cuts: [UInt] = []
        var id: UInt = 0
        for round in 0..<each {
            for address in 0..<addresses {
                id += 1
                let made = deadlines.opened(id, address: "10.0.0.\(address)", at: Double(round))
                #expect(!made.contains(id))
                cuts += made
            }
        }
        #expect(cuts.count == cut)
        #expect(deadlines.heldCount == min(addresses * each - cut, 48))
    }

    @Test("The owner's new connection gets in among an address's stalls, and is not cut once its head arrives")
    func ownerGetsIn() {
        var deadlines = ConnectionDeadlines()
        for stall in 1...8 { _ = deadlines.opened(UInt(stall), address: "127.0.0.1", at: Double(stall) / 10) }
        #expect(deadlines.opened(100, address: "127.0.0.1", at: 2) == [1], "the oldest stall makes room")
        deadlines.headArrived(100, smallBody: false, at: 2.001)
        for stall in 9...40 { #expect(!deadlines.opened(UInt(stall), address: "127.0.0.1", at: 3).contains(100)) }
        #expect(!deadlines.overdue(at: 60).contains(100))
    }

    @Test(
        "A connection in its first second (its TLS handshake, its head) is never cut for room; past it, the oldest goes",
        arguments: [(0.4, 1 as UInt), (0.95, 1), (1.5, 100)])
    func grace(ownerAge: Double, firstCut: UInt) {
        var deadlines = ConnectionDeadlines()
        // Seven connections from the owner's address opened at 0 s; the owner's opens at 0.8 s, and
        // then the seven are answered and wait again (so each is newer than the owner's by then).
        for stall in 1...7 { _ = deadlines.opened(UInt(stall), address: "127.0.0.1", at: 0) }
        _ = deadlines.opened(100, address: "127.0.0.1", at: 0.8)
        for stall in 1...7 {
            deadlines.headArrived(UInt(stall), smallBody: false, at: 0.85)
            deadlines.answered(UInt(stall), at: 0.85)
        }
        // A flood's next connection, `ownerAge` seconds after the owner's.
        let cut = deadlines.opened(200, address: "127.0.0.1", at: 0.8 + ownerAge)
        #expect(cut == [firstCut], "cut \(cut) with the owner \(ownerAge) s old")
        // A flood of connections all in their first second: none is cut for room, the owner's neither.
        var flood = ConnectionDeadlines()
        _ = flood.opened(100, address: "127.0.0.1", at: 0)
        for attacker in 1...50 { #expect(flood.opened(UInt(attacker), address: "127.0.0.1", at: Double(attacker) / 100).isEmpty) }
        #expect(flood.opened(51, address: "127.0.0.1", at: 1.2).first == 100, "past its grace, the oldest unread goes first")
    }

    @Test(
        "An answer is due whole within 5 s plus its size at 32 KiB/s",
        arguments: [(0, 5.0), (32_768, 6.0), (263_168, 13.03125), (1_048_576, 37.0), (-1, 5.0)])
    func answerDeadline(bytes: Int, seconds: Double) {
        #expect(ConnectionDeadlines.Limits().answerDeadline(bytes: bytes) == seconds)
    }

    @Test(
        "A slow reader is cut just past its answer's deadline, counted from when the answer started",
        arguments: [(0, 4.9, false), (0, 5.1, true), (263_168, 13.0, false), (263_168, 13.1, true), (1_048_576, 36.9, false), (1_048_576, 37.1, true)])
    func slowReader(bytes: Int, after: Double, cut: Bool) {
        var deadlines = ConnectionDeadlines()
        _ = deadlines.opened(1, address: "127.0.0.1", at: 100)
        deadlines.headArrived(1, smallBody: false, at: 100.001)
        #expect(deadlines.overdue(at: 1_000) == [], "worked on, it has no deadline here")
        #expect(deadlines.answerStarted(1, bytes: bytes, at: 1_000) == [])
        #expect(deadlines.overdue(at: 1_000 + after) == (cut ? [1] : []))
    }

    @Test("An answer that went whole starts the head deadline again; a connection already cut is not counted again")
    func answerWentWhole() {
        var deadlines = ConnectionDeadlines()
        _ = deadlines.opened(1, address: "127.0.0.1", at: 0)
        deadlines.headArrived(1, smallBody: false, at: 0)
        _ = deadlines.answerStarted(1, bytes: 1_000_000, at: 0)
        deadlines.answered(1, at: 2)
        #expect(deadlines.overdue(at: 6.9) == [])
        #expect(deadlines.overdue(at: 7.1) == [1], "kept alive, its next head is due within 5 s")
        #expect(deadlines.answerStarted(1, bytes: 10, at: 8) == [] && deadlines.heldCount == 0)
    }

    @Test(
        "Slow readers count with stalls: past 8 from one address or 48 in all the oldest goes, never the newer one",
        arguments: [(1, 8, 0), (1, 9, 1), (1, 40, 32), (6, 8, 0), (7, 8, 8), (5, 64, 280)])
    func readersCrowded(addresses: Int, each: Int, cut: Int) {
        var deadlines = ConnectionDeadlines()
        var cuts: [UInt] = []
        var id: UInt = 0
        for round in 0..<each {
            for address in 0..<addresses {
                id += 1
                let now = Double(round)  // a second apart: each is past its grace when the next comes
                let opened = deadlines.opened(id, address: "127.0.0.\(address + 1)", at: now)
                deadlines.headArrived(id, smallBody: false, at: now)
                let started = deadlines.answerStarted(id, bytes: 263_168, at: now)
                #expect(!opened.contains(id) && !started.contains(id))
                cuts += opened + started
            }
        }
        #expect(cuts.count == cut && Set(cuts).count == cut)
        #expect(deadlines.heldCount == min(addresses * each - cut, 48))
    }

    @Test("The owner's Stop gets in among an address's slow readers, and its answer is not cut by those that come after it")
    func ownerAmongReaders() {
        var deadlines = ConnectionDeadlines()
        for reader in 1...8 {
            let now = Double(reader) / 10
            _ = deadlines.opened(UInt(reader), address: "127.0.0.1", at: now)
            deadlines.headArrived(UInt(reader), smallBody: false, at: now)
            _ = deadlines.answerStarted(UInt(reader), bytes: 263_168, at: now)
        }
        #expect(deadlines.opened(100, address: "127.0.0.1", at: 3) == [1], "the oldest reader makes room")
        deadlines.headArrived(100, smallBody: false, at: 3.001)
        #expect(deadlines.answerStarted(100, bytes: 120, at: 3.050) == [], "its answer counts again: 8 from the address")
        #expect(deadlines.opened(9, address: "127.0.0.1", at: 3.051) == [2], "a newer reader pushes out the oldest, not the owner")
        #expect(!deadlines.overdue(at: 8.0).contains(100), "a small answer has 5 s")
        deadlines.answered(100, at: 3.052)
        deadlines.closed(100)
        #expect(deadlines.heldCount == 7)
    }

    @Test("A slow reader goes before a request not yet read, even a newer reader before an older stall")
    func readersFirst() {
        var deadlines = ConnectionDeadlines()
        for stall in 1...4 { _ = deadlines.opened(UInt(stall), address: "127.0.0.1", at: 0) }
        for reader in 5...8 {
            _ = deadlines.opened(UInt(reader), address: "127.0.0.1", at: 1)
            deadlines.headArrived(UInt(reader), smallBody: false, at: 1)
            _ = deadlines.answerStarted(UInt(reader), bytes: 263_168, at: 1)
        }
        #expect(deadlines.opened(100, address: "127.0.0.1", at: 2) == [5])
        #expect(deadlines.opened(101, address: "127.0.0.1", at: 2) == [6])
        #expect(deadlines.opened(102, address: "127.0.0.1", at: 2) == [7], "the owner's request (100), not yet read, stays")
    }

    @Test("A paired device's upload, being worked on, is neither counted nor cut, however long it takes")
    func uploadsStayAsToday() {
        var deadlines = ConnectionDeadlines()
        _ = deadlines.opened(1, address: "127.0.0.1", at: 0)
        deadlines.headArrived(1, smallBody: false, at: 0.01)
        for reader in 2...60 {
            _ = deadlines.opened(UInt(reader), address: "127.0.0.1", at: 1)
            deadlines.headArrived(UInt(reader), smallBody: false, at: 1)
            #expect(!deadlines.answerStarted(UInt(reader), bytes: 263_168, at: 1).contains(1))
        }
        #expect(!deadlines.overdue(at: 600).contains(1))
    }
}
