import Foundation
import Testing

@testable import VoiceAlarmCore

@Suite("MQTT topics and broker addresses")
struct HomeTopicsTests {
    @Test("The machine's node name", arguments: [("Bedside.local", "bedside"), ("pi-4b", "pi_4b"), ("ÉCOLE", "_cole"), ("", "machine")])
    func node(host: String, node: String) {
        #expect(HomeTopics.node(of: host) == node)
    }

    @Test("Defaults: voicealarm/NODE and homeassistant")
    func defaults() throws {
        let topics = try HomeTopics(host: "bedside")
        #expect(topics.base == "voicealarm/bedside" && topics.discoveryPrefix == "homeassistant")
        #expect(topics.config("switch", "x_on") == "homeassistant/switch/voicealarm_bedside/x_on/config")
        #expect(topics.homeAssistantStatus == "homeassistant/status")
    }

    @Test("A base or prefix refused", arguments: ["", "a/#", "a/+/b", "/a", "a/", "a//b", "a\u{0}b", String(repeating: "a", count: 101)])
    func refused(base: String) {
        #expect(throws: HomeTopics.Refusal.self) { try HomeTopics(host: "h", base: base) }
        #expect(throws: HomeTopics.Refusal.self) { try HomeTopics(host: "h", discoveryPrefix: base) }
    }

    @Test(
        "Broker addresses",
        arguments: [
            ("localhost", "localhost", nil), ("mqtt.home:8883", "mqtt.home", 8883), ("[::1]:1883", "::1", 1883), ("[fe80::1]", "fe80::1", nil),
            ("192.168.1.2:1", "192.168.1.2", 1),
        ] as [(String, String, Int?)])
    func brokers(text: String, host: String, port: Int?) {
        #expect(BrokerAddress.parse(text) == .success(BrokerAddress(host: host, port: port)))
    }

    @Test("Broker addresses refused", arguments: ["", ":1883", "host:0", "host:65536", "host:x", "::1", "[::1", "[::1]x", "no such:1", "a/b:1", "user@h:1"])
    func brokerRefused(text: String) {
        guard case .failure(let refusal) = BrokerAddress.parse(text) else {
            Issue.record("\(text) was taken")
            return
        }
        #expect(refusal.description.contains("not a broker address"))
    }
}
