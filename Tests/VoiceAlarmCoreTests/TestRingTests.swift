import Foundation
import Testing
import VoiceAlarmCore

/// Where a test ring is, from what the data dir holds: the request, the daemon's taking it, the
/// ring going on and the ring's own result.
@Suite("A test ring's phase")
struct TestRingTests {
    static let alarm = UUID(uuidString: "4F1C0000-0000-4000-8000-000000000001")!
    static let other = UUID(uuidString: "4F1C0000-0000-4000-8000-000000000002")!
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func request(_ id: UUID = alarm, at offset: Double = 0) -> TestRing.Request { .init(alarm: id, asked: start.addingTimeInterval(offset)) }
    static func at(_ offset: Double) -> Date { start.addingTimeInterval(offset) }

    @Test("asked and waiting; not taken in time is said, not waited on for ever")
    func asked() {
        #expect(TestRing.phase(asked: Self.request(), taken: nil, result: nil, ringing: false, now: Self.at(3)) == .asked(Self.request()))
        #expect(TestRing.phase(asked: Self.request(), taken: nil, result: nil, ringing: false, now: Self.at(16)) == .failed(Self.request(), .notTaken))
    }

    @Test("a newer request is shown over an older ring's result; an older request left behind is not")
    func newest() {
        let newer = Self.request(Self.other, at: 60)
        let rang = TestRing.Result.rang(device: "default", voice: true, seconds: 10)
        #expect(TestRing.phase(asked: newer, taken: Self.request(), result: rang, ringing: false, now: Self.at(61)) == .asked(newer))
        #expect(
            TestRing.phase(asked: Self.request(at: -5), taken: Self.request(), result: rang, ringing: false, now: Self.at(20))
                == .rang(Self.request(), device: "default", voice: true, seconds: 10))
    }

    @Test(
        "taken: ringing, rang, made no sound, or ended without a word",
        arguments: [
            (nil, true, 5.0, "ringing"), (nil, false, 2.0, "ringing"), (nil, false, 30.0, "endedUnheard"),
            (TestRing.Result.rang(device: "pulse", voice: false, seconds: 10), false, 12.0, "rang"),
            (TestRing.Result.madeNoSound("no sound device could play it"), false, 3.0, "madeNoSound"),
        ] as [(TestRing.Result?, Bool, Double, String)])
    func taken(result: TestRing.Result?, ringing: Bool, after: Double, expected: String) {
        let phase = TestRing.phase(asked: nil, taken: Self.request(), result: result, ringing: ringing, now: Self.at(after))
        let said: String =
            switch phase {
            case .ringing: "ringing"
            case .rang: "rang"
            case .failed(_, .endedUnheard): "endedUnheard"
            case .failed(_, .madeNoSound): "madeNoSound"
            default: "\(String(describing: phase))"
            }
        #expect(said == expected)
    }

    @Test("a result older than ten minutes is no longer shown")
    func fades() {
        let rang = TestRing.Result.rang(device: "default", voice: true, seconds: 10)
        #expect(TestRing.phase(asked: nil, taken: Self.request(), result: rang, ringing: false, now: Self.at(599)) != nil)
        #expect(TestRing.phase(asked: nil, taken: Self.request(), result: rang, ringing: false, now: Self.at(601)) == nil)
        #expect(TestRing.phase(asked: nil, taken: nil, result: nil, ringing: false, now: Self.at(0)) == nil)
    }
}
