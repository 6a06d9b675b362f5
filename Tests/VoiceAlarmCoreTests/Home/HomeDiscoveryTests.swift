import Foundation
import Testing

@testable import VoiceAlarmCore

@Suite("Home Assistant's discovery, states, events, pre-alarms")
struct HomeDiscoveryTests {
    static let topics = try! HomeTopics(host: "bedside")
    static let id = UUID(uuidString: "9c41d2e0-3b1f-4c8e-9a55-0d6c2b7e1f00")!
    static let next = Date(timeIntervalSince1970: 1_796_713_200)  // 2026-12-08 07:00 UTC

    static func snapshot(label: String = "Morning / +#") -> HomeSnapshot {
        HomeSnapshot(
            alarms: [.init(id: id, name: label, time: AlarmTime(hour: 7, minute: 0), isOn: true, voice: true, next: next, state: .scheduled)],
            problems: [], ringing: false, timeZone: TimeZone(identifier: "Europe/Berlin")!)
    }

    @Test("Every entity, retained, with unique ids and no label in any topic")
    func plan() throws {
        let plan = HomeDiscovery.plan(Self.snapshot(), topics: Self.topics, version: "1.0")
        let configs = plan.filter { $0.topic.hasSuffix("/config") }
        #expect(configs.count == 15)  // 7 of the machine's, 8 of the alarm's
        #expect(plan.allSatisfy { $0.retain && $0.qos == 0 })
        #expect(!plan.contains { $0.topic.contains("Morning") || $0.topic.contains("+") || $0.topic.contains("#") })
        let ids = try configs.map { try #require(try JSONSerialization.jsonObject(with: Data($0.payload.utf8)) as? [String: Any])["unique_id"] as? String }
        #expect(Set(ids).count == configs.count)
        let next = try #require(plan.first { $0.topic == "voicealarm/bedside/alarm/9c41d2e0-3b1f-4c8e-9a55-0d6c2b7e1f00/next" })
        #expect(next.payload == "2026-12-08T08:00:00+01:00")
        let text = try #require(configs.first { $0.topic.contains("/text/") })
        let config = try #require(try JSONSerialization.jsonObject(with: Data(text.payload.utf8)) as? [String: Any])
        #expect(config["pattern"] as? String == HomeDiscovery.timePattern && config["command_topic"] as? String != nil)
        #expect((config["device"] as? [String: Any])?["name"] as? String == "Morning / +#", "the label is the device's name, in the payload only")
    }

    @Test("An event is not retained, at least once, with its type")
    func event() throws {
        var event = AlarmEvent(.rang, alarm: Self.id, at: Self.next)
        event.sound = .standard
        event.reason = "voice off"
        let message = HomeDiscovery.event(event, topics: Self.topics, timeZone: TimeZone(identifier: "UTC")!)
        #expect(!message.retain && message.qos == 1)
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(message.payload.utf8)) as? [String: String])
        #expect(fields == ["event_type": "rang", "at": "2026-12-08T07:00:00+00:00", "sound": "default", "reason": "voice off"])
    }

    @Test(
        "An alarm's state",
        arguments: [
            (true, false, false, true, HomeSnapshot.State.scheduled), (false, false, false, false, .off), (true, true, false, true, .ringing),
            (false, true, false, false, .ringing), (true, false, true, true, .snoozed), (true, false, false, false, .skipped),
        ])
    func state(isOn: Bool, ringing: Bool, snoozed: Bool, nextIsPattern: Bool, state: HomeSnapshot.State) {
        let pattern = Self.next, next = nextIsPattern ? Self.next : Self.next.addingTimeInterval(86_400)
        #expect(HomeSnapshot.Entry.state(isOn: isOn, ringing: ringing, snoozed: snoozed, next: isOn ? next : nil, patternNext: isOn ? pattern : nil) == state)
    }

    @Test("A pre-alarm once per ring, within the lead; a moved ring is announced again")
    func preAlarm() {
        var watch = PreAlarmWatch(minutes: 10)
        let ring = Self.next
        #expect(watch.due(at: ring.addingTimeInterval(-601), rings: [(Self.id, ring)]).isEmpty)
        #expect(watch.due(at: ring.addingTimeInterval(-600), rings: [(Self.id, ring)]).map(\.due) == [ring])
        #expect(watch.due(at: ring.addingTimeInterval(-300), rings: [(Self.id, ring)]).isEmpty)
        #expect(watch.due(at: ring, rings: [(Self.id, ring)]).isEmpty)
        let moved = ring.addingTimeInterval(120)
        #expect(watch.due(at: ring.addingTimeInterval(-60), rings: [(Self.id, moved)]).map(\.kind) == [.preAlarm])
    }

    @Test("The queue keeps the newest and counts what it dropped")
    func queue() {
        var queue = HomeEventQueue(capacity: 3)
        for second in 0..<5 { queue.append(AlarmEvent(.rang, alarm: Self.id, at: Date(timeIntervalSince1970: Double(second)))) }
        #expect(queue.waiting.map(\.at.timeIntervalSince1970) == [2, 3, 4] && queue.dropped == 2)
        queue.removeFirst()
        #expect(queue.first?.at.timeIntervalSince1970 == 3)
    }
}
