import Foundation
import Testing

@testable import VoiceAlarmCore

@Suite("Pairing closes after too many wrong codes, and opens again")
struct PairingAttemptsTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("Five wrong codes in a minute close it until the first leaves the minute")
    func closes() {
        var attempts = PairingAttempts(allowed: 5, window: 60)
        for second in 0..<4 {
            let closes = attempts.noteFailure(at: start + Double(second * 10))
            #expect(!closes)
        }
        #expect(attempts.closedFor(at: start + 40) == nil)
        let fifthCloses = attempts.noteFailure(at: start + 40)
        #expect(fifthCloses)
        #expect(attempts.closedFor(at: start + 41) == 19)
        #expect(attempts.closedFor(at: start + 59.5) == 1)
        #expect(attempts.closedFor(at: start + 60) == nil, "the first wrong code has left the minute")
    }

    @Test("Wrong codes spread over more than a minute never close it", arguments: [61.0, 120.0])
    func spread(_ gap: Double) {
        var attempts = PairingAttempts()
        for i in 0..<20 { attempts.noteFailure(at: start + Double(i) * gap / 4 * 1.01) }
        #expect(attempts.closedFor(at: start + 20 * gap) == nil)
    }
}
