import Foundation
import Testing
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmFiles
import VoiceAlarmHome
import VoiceAlarmMQTT

/// A broker standing in for Mosquitto: what the bridge published, and a switch that takes it away.
final class FakeLink: HomeLink {
    var up = true
    var pending: [MQTTClient.Happening] = []
    var published: [HomeMessage] = []
    var subscribed: [String] = []
    /// What every connect call throws, when set (a handshake refused inside the call).
    var connectFailure: MQTTError?

    func connect() throws(MQTTError) {
        if let connectFailure { throw connectFailure }
        guard up else { throw .unreachable("Connection refused") }
        pending.append(.connected)
    }
    func pump(timeout: Double) -> [MQTTClient.Happening] {
        defer { pending.removeAll() }
        return pending
    }
    func publish(_ message: HomeMessage) throws(MQTTError) {
        guard up else { throw .lost("not connected") }
        published.append(message)
    }
    func subscribe(_ filter: String) throws(MQTTError) { subscribed.append(filter) }
    func close() {}

    /// The broker goes away: the connection is lost at the next pump.
    func drop() {
        up = false
        pending.append(.lost(.lost("The connection was lost")))
    }
    func events() -> [String] {
        published.filter { $0.topic.hasSuffix("/event") }.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.payload.utf8)) as? [String: String])?["event_type"]
        }
    }
}

/// The bridge's rules with a fake broker and clock over a real library, in milliseconds: what it
/// publishes, what it keeps while the broker is away, what goes when an alarm goes, what ends it.
@Suite("The bridge's rules")
struct HomeBridgeRulesTests {
    final class Fixture {
        let library: LibraryFixture
        let link = FakeLink()
        let clock = Locked(LibraryFixture.now)
        var lines: [String] = []
        let alarm: UUID
        var bridge: HomeBridge!

        init(anonymous: Bool = false) throws {
            library = try LibraryFixture()
            let clip = try library.service.clips.add(library.sample("calm.wav"), title: "Calm")
            _ = try library.service.playlists.setManifesto(clip.idString)
            alarm = try library.service.alarms.add(on: .manifesto, at: AlarmTime(hour: 7, minute: 0), days: .everyDay).status.alarm.id
            let clock = self.clock, service = library.service
            bridge = HomeBridge(
                .init(topics: try HomeTopics(host: "bedside"), preAlarmMinutes: 10, version: "test", allowAnonymousBroker: false),
                location: LibraryLocation(dataDirectory: library.dir.path), link: link, brokerName: "fake:1883",
                acceptsAnonymous: { anonymous }, open: { service }, now: { clock.withLock { $0 } },
                log: { [unowned self] in self.lines.append($0) }, pause: { _ in })
        }

        func advance(_ seconds: Double) { clock.withLock { $0 = $0.addingTimeInterval(seconds) } }
        func steps(_ count: Int) throws(HomeBridge.Failure) { for _ in 0..<count { try bridge.step() } }
        func record(_ kind: AlarmEvent.Kind) throws {
            try AlarmEventJournal(dataDirectory: library.dir.path).record(AlarmEvent(kind, alarm: alarm, at: clock.withLock { $0 }))
        }
    }

    @Test("Connected, it subscribes, publishes every config and state once, and then only what changes")
    func publishes() throws {
        let f = try Fixture()
        try f.steps(3)
        #expect(f.link.subscribed.contains("homeassistant/status") && f.link.subscribed.contains("voicealarm/bedside/+/press"))
        #expect(f.link.published.filter { $0.topic.hasSuffix("/config") }.count == 15)
        let count = f.link.published.count
        try f.steps(3)
        #expect(f.link.published.count == count, "nothing changed, nothing sent")
        _ = try f.library.service.alarms.setOn(false, for: f.alarm.uuidString)
        try f.steps(1)
        let changed = f.link.published.dropFirst(count).map(\.topic)
        #expect(changed.contains("voicealarm/bedside/alarm/\(f.alarm.uuidString.lowercased())/on"))
        #expect(!changed.contains { $0.hasSuffix("/config") }, "configs are not sent again: \(changed)")
    }

    @Test("Events while the broker is away wait, in order, and all arrive when it is back, with every state again")
    func keepsEvents() throws {
        let f = try Fixture()
        try f.steps(3)
        f.link.drop()
        try f.steps(1)
        for kind in [AlarmEvent.Kind.rang, .snoozed, .rang, .stopped] { try f.record(kind) }
        try f.steps(2)
        #expect(f.link.events().isEmpty)
        f.link.up = true
        f.advance(2)  // past the first wait (1 s)
        try f.steps(3)
        #expect(f.link.events() == ["rang", "snoozed", "rang", "stopped"])
        #expect(f.link.published.filter { $0.topic.hasSuffix("/config") }.count == 30, "everything again after the reconnection")
        #expect(f.lines.filter { $0.contains("trying again") }.count == 1)
    }

    @Test("A broker that stays away is tried again with a doubling wait, said once a minute")
    func backsOff() throws {
        let f = try Fixture()
        f.link.up = false
        for _ in 0..<40 {
            try f.steps(1)
            f.advance(5)
        }
        // Tries at 0, 5, 10, 15, 25, 45 (waits of 1, 2, 4, 8, 16, 32 s), then every 60 s: 80, 140;
        // said at the first, then at the first try a minute or more after the last said: 0, 80, 140.
        #expect(f.lines.filter { $0.contains("cannot reach the broker") }.count == 3, "\(f.lines)")
    }

    @Test("A removed alarm's configs and states are cleared, empty and retained")
    func removes() throws {
        let f = try Fixture()
        try f.steps(3)
        let topics = Set(
            f.link.published.filter {
                $0.topic.contains(f.alarm.uuidString.lowercased().replacingOccurrences(of: "-", with: "")) || $0.topic.contains(f.alarm.uuidString.lowercased())
            }.map(\.topic))
        let count = f.link.published.count
        _ = try f.library.service.alarms.remove([f.alarm.uuidString])
        try f.steps(1)
        let cleared = f.link.published.dropFirst(count).filter { $0.payload.isEmpty && $0.retain }
        #expect(Set(cleared.map(\.topic)) == topics, "every topic of its own, and nothing else")
        #expect(topics.count == 13)  // 8 configs, 5 states
    }

    @Test("Refused credentials, and a broker anyone may use, end the bridge")
    func ends() throws {
        let f = try Fixture()
        try f.steps(1)
        f.link.pending = [.lost(.refused(code: 5, reason: "not authorised"))]
        #expect(throws: HomeBridge.Failure.broker(.refused(code: 5, reason: "not authorised"))) { try f.steps(1) }
        let open = try Fixture(anonymous: true)
        #expect(throws: HomeBridge.Failure.anonymousBroker("fake:1883")) { try open.steps(2) }
    }

    /// Where libmosquitto reports a refused TLS handshake depends on timing: inside the connect
    /// call, or in a later read of the loop. Either way it ends the bridge; retried, it repeats for ever.
    @Test("A CA that does not vouch for the broker ends the bridge, reported by the connect or by the loop", arguments: [true, false])
    func tlsRefusalEnds(inConnect: Bool) throws {
        let f = try Fixture()
        let refusal = MQTTError.tls("certificate verify failed")
        if inConnect {
            f.link.connectFailure = refusal
            #expect(throws: HomeBridge.Failure.broker(refusal)) { try f.steps(1) }
        } else {
            try f.steps(1)
            f.link.pending = [.lost(refusal)]
            #expect(throws: HomeBridge.Failure.broker(refusal)) { try f.steps(1) }
        }
        #expect(f.lines.filter { $0.contains("trying again") }.isEmpty, "\(f.lines)")
    }

    @Test("A pre-alarm once, ten minutes before the ring")
    func preAlarm() throws {
        let f = try Fixture()  // now: 2026-11-29 22:00 UTC; the alarm rings at 07:00
        try f.steps(3)
        f.advance(8 * 3600 + 49 * 60)
        try f.steps(2)
        #expect(f.link.events().isEmpty)
        f.advance(61)
        try f.steps(2)
        f.advance(60)
        try f.steps(2)
        #expect(f.link.events() == ["pre_alarm"])
    }
}
