import Foundation
import Testing

@testable import VoiceAlarmCore

@Suite("Wrong pairing codes are counted per address, and over all")
struct PairingLimitsTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("One address's guesses close pairing for it, not for another")
    func perAddress() {
        var limits = PairingLimits(perAddress: 5, overall: 30, window: 60)
        for second in 0..<5 { limits.noteFailure(from: "10.0.0.9", at: start + Double(second)) }
        #expect(limits.closedFor("10.0.0.9", at: start + 5) == 55)
        #expect(limits.closedFor("10.0.0.20", at: start + 5) == nil)
        #expect(limits.closedFor("10.0.0.9", at: start + 60) == nil)
    }

    @Test("Guesses from many addresses together close it for everyone", arguments: [29, 30])
    func overall(_ guesses: Int) {
        var limits = PairingLimits(perAddress: 5, overall: 30, window: 60)
        for i in 0..<guesses { limits.noteFailure(from: "10.0.\(i / 4).\(i % 4)", at: start + Double(i)) }
        #expect((limits.closedFor("10.9.9.9", at: start + 31) != nil) == (guesses >= 30))
    }
}
