import Testing
import VoiceAlarmHTTP

@Suite("Connection deadlines: stalls are cut, the oldest first, never a request being answered")
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
        "Past 8 unfinished from one address, that address's oldest goes; past 48 in all, the oldest anywhere; never the new one",
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
        #expect(deadlines.unfinishedCount == min(addresses * each - cut, 48))
    }

    @Test("The owner's new connection gets in among an address's stalls, and is not cut once its head arrives")
    func ownerGetsIn() {
        var deadlines = ConnectionDeadlines()
        for stall in 1...8 { _ = deadlines.opened(UInt(stall), address: "127.0.0.1", at: Double(stall) / 10) }
        #expect(deadlines.opened(100, address: "127.0.0.1", at: 1) == [1], "the oldest stall makes room")
        deadlines.headArrived(100, smallBody: false, at: 1.001)
        for stall in 9...40 { #expect(!deadlines.opened(UInt(stall), address: "127.0.0.1", at: 2).contains(100)) }
        #expect(!deadlines.overdue(at: 60).contains(100))
    }
}
