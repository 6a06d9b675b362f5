import Foundation
import Testing

@testable import VoiceAlarmCore

@Suite("Commands from Home Assistant")
struct HomeCommandTests {
    static let topics = try! HomeTopics(host: "bedside", base: "va/bedside")
    static let id = UUID(uuidString: "9c41d2e0-3b1f-4c8e-9a55-0d6c2b7e1f00")!
    static let alarm = "va/bedside/alarm/9c41d2e0-3b1f-4c8e-9a55-0d6c2b7e1f00"

    @Test(
        "What each topic and payload is",
        arguments: [
            ("va/bedside/stop/press", "PRESS", HomeCommand.stop), ("va/bedside/snooze/press", "PRESS", .snooze), ("va/bedside/up/press", "PRESS", .imUp),
            ("\(alarm)/on/set", "OFF", .setOn(id, false)), ("\(alarm)/on/set", " ON ", .setOn(id, true)), ("\(alarm)/voice/set", "OFF", .setVoice(id, false)),
            ("\(alarm)/skip/press", "PRESS", .skipNext(id)), ("\(alarm)/ring/press", "PRESS", .ringNow(id)),
            ("\(alarm)/time/set", "06:45", .setTime(id, AlarmTime(hour: 6, minute: 45))),
        ])
    func commands(topic: String, payload: String, command: HomeCommand) {
        #expect(HomeCommand.parse(topic: topic, payload: Array(payload.utf8), topics: Self.topics) == .success(command))
    }

    @Test(
        "What is refused, and why",
        arguments: [
            ("\(alarm)/time/set", Array("25:00".utf8), "is not a time"), ("\(alarm)/time/set", Array("6:45".utf8), "is not a time"),
            ("\(alarm)/time/set", Array("06:45:00".utf8), "is not a time"), ("\(alarm)/on/set", Array("on".utf8), "ON or OFF"),
            ("\(alarm)/on/set", Array(repeating: UInt8(ascii: "O"), count: 65), "at most 64"), ("\(alarm)/on/set", [0xFF, 0xFE], "not UTF-8"),
            ("va/bedside/stop/press", Array("press".utf8), "PRESS"), ("\(alarm)/label/set", Array("Hi".utf8), "no command"),
            ("va/bedside/alarm/9C41D2E0-3B1F-4C8E-9A55-0D6C2B7E1F00/on/set", Array("OFF".utf8), "no command"),
            ("va/bedside/alarm/not-an-id/on/set", Array("OFF".utf8), "no command"), ("va/other/stop/press", Array("PRESS".utf8), "no command"),
            ("\(alarm)/on/set/extra", Array("OFF".utf8), "no command"), ("va/bedside/stop", Array("PRESS".utf8), "no command"),
        ])
    func refusals(topic: String, payload: [UInt8], reason: String) throws {
        guard case .failure(let refusal) = HomeCommand.parse(topic: topic, payload: payload, topics: Self.topics) else {
            Issue.record("\(topic) was taken")
            return
        }
        #expect(refusal.description.contains(reason), "\(refusal)")
    }

    @Test("A refusal shows what came printable and short")
    func printable() throws {
        guard case .failure(let refusal) = HomeCommand.parse(topic: "\(Self.alarm)/time/set", payload: Array("0\u{1B}[2J".utf8), topics: Self.topics) else {
            Issue.record("taken")
            return
        }
        #expect(!refusal.description.contains("\u{1B}"))
    }
}
