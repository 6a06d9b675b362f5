import Foundation

/// The retained messages that make a library appear in Home Assistant (its MQTT discovery
/// format) and show its state: a plan from a `HomeSnapshot`, with no I/O. The bridge publishes
/// what differs from what it published last, and clears (empty, retained) what is no longer
/// planned — so a removed alarm removes its device.
///
/// One device for the machine (problems, ringing now, the next alarm, Stop, Snooze, I'm up) and
/// one per alarm (on/off, voice, next ring, state, Skip next, Ring now, its time, its events).
package enum HomeDiscovery {
    /// The payload of a `text` entity's time: `HH:MM`.
    package static let timePattern = "^([01][0-9]|2[0-3]):[0-5][0-9]$"
    /// A button's press and a switch's payloads.
    package static let press = "PRESS", on = "ON", off = "OFF"
    /// A timestamp sensor's "unknown".
    package static let none = "None"

    /// Every config and state message for `snapshot`, in a stable order.
    package static func plan(_ snapshot: HomeSnapshot, topics: HomeTopics, version: String) -> [HomeMessage] {
        machine(snapshot, topics, version) + snapshot.alarms.flatMap { alarm($0, snapshot.timeZone, topics) }
    }

    /// An event as the alarm's `event` entity takes it: `{"event_type": "rang", …}`, QoS 1, not
    /// retained (Home Assistant never keeps events).
    package static func event(_ event: AlarmEvent, topics: HomeTopics, timeZone: TimeZone) -> HomeMessage {
        var fields: [String: String] = ["event_type": event.kind.rawValue, "at": LocalTimeText.iso(event.at, timeZone)]
        fields["sound"] = event.sound?.rawValue
        fields["reason"] = event.reason
        fields["device"] = event.device
        fields["test"] = event.test.map { $0 ? "true" : "false" }
        fields["seconds"] = event.seconds.map { String(format: "%.1f", $0) }
        fields["due"] = event.due.map { LocalTimeText.iso($0, timeZone) }
        fields["ring_at"] = event.ringAt.map { LocalTimeText.iso($0, timeZone) }
        return HomeMessage(topics.alarm(event.alarm, "event"), json(fields), retain: false, qos: 1)
    }

    // MARK: - The machine

    private static func machine(_ snapshot: HomeSnapshot, _ topics: HomeTopics, _ version: String) -> [HomeMessage] {
        let device = Device(
            identifiers: ["voicealarm_\(topics.node)"], name: "VoiceAlarm \(topics.node)", manufacturer: "VoiceAlarm",
            model: "Bedside alarm clock", swVersion: version, viaDevice: nil)
        func entity(_ key: String, _ name: String) -> Config {
            Config(
                name: name, uniqueId: "voicealarm_\(topics.node)_\(key)", objectId: "voicealarm_\(topics.node)_\(key)",
                availabilityTopic: topics.availability, device: device)
        }
        var problems = entity("problems", "Problems")
        problems.stateTopic = topics.machine("problems")
        problems.jsonAttributesTopic = topics.machine("problems/attributes")
        problems.deviceClass = "problem"
        problems.entityCategory = "diagnostic"
        var ringing = entity("ringing", "Ringing")
        ringing.stateTopic = topics.machine("ringing")
        ringing.deviceClass = "sound"
        var next = entity("next", "Next alarm")
        next.stateTopic = topics.machine("next")
        next.deviceClass = "timestamp"
        var lastCommand = entity("last_command", "Last command")
        lastCommand.stateTopic = topics.machine("last_command")
        lastCommand.entityCategory = "diagnostic"
        let buttons = [("stop", "Stop"), ("snooze", "Snooze"), ("up", "I'm up")].map { key, name in
            var button = entity(key, name)
            button.commandTopic = topics.machine("\(key)/press")
            button.payloadPress = press
            return HomeMessage(topics.config("button", key), encode(button))
        }
        let sentence = snapshot.problems.isEmpty ? "Nothing is wrong." : snapshot.problems.joined(separator: " ")
        return [
            HomeMessage(topics.config("binary_sensor", "problems"), encode(problems)),
            HomeMessage(topics.config("binary_sensor", "ringing"), encode(ringing)),
            HomeMessage(topics.config("sensor", "next"), encode(next)),
            HomeMessage(topics.config("sensor", "last_command"), encode(lastCommand)),
        ] + buttons + [
            HomeMessage(topics.availability, "online"),
            HomeMessage(topics.machine("problems"), snapshot.problems.isEmpty ? off : on),
            HomeMessage(topics.machine("problems/attributes"), json(["sentence": sentence])),
            HomeMessage(topics.machine("ringing"), snapshot.ringing ? on : off),
            HomeMessage(topics.machine("next"), snapshot.next.map { LocalTimeText.iso($0.at, snapshot.timeZone) } ?? none),
        ]
    }

    // MARK: - An alarm

    private static func alarm(_ alarm: HomeSnapshot.Entry, _ zone: TimeZone, _ topics: HomeTopics) -> [HomeMessage] {
        let hex = alarm.id.uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let device = Device(
            identifiers: ["voicealarm_\(topics.node)_\(hex)"], name: alarm.name, manufacturer: "VoiceAlarm", model: "Alarm",
            swVersion: nil, viaDevice: "voicealarm_\(topics.node)")
        func entity(_ key: String, _ name: String) -> Config {
            Config(
                name: name, uniqueId: "voicealarm_\(topics.node)_\(hex)_\(key)", objectId: "voicealarm_\(topics.node)_\(hex)_\(key)",
                availabilityTopic: topics.availability, device: device)
        }
        func object(_ key: String) -> String { "\(hex)_\(key)" }
        var configs: [HomeMessage] = []
        for (key, name) in [("on", "On"), ("voice", "Wake up to my voice")] {
            var toggle = entity(key, name)
            toggle.stateTopic = topics.alarm(alarm.id, key)
            toggle.commandTopic = topics.alarm(alarm.id, "\(key)/set")
            toggle.payloadOn = on
            toggle.payloadOff = off
            configs.append(HomeMessage(topics.config("switch", object(key)), encode(toggle)))
        }
        var next = entity("next", "Next ring")
        next.stateTopic = topics.alarm(alarm.id, "next")
        next.deviceClass = "timestamp"
        var state = entity("state", "State")
        state.stateTopic = topics.alarm(alarm.id, "state")
        state.deviceClass = "enum"
        state.options = HomeSnapshot.State.allCases.map(\.rawValue)
        configs += [HomeMessage(topics.config("sensor", object("next")), encode(next)), HomeMessage(topics.config("sensor", object("state")), encode(state))]
        for (key, name) in [("skip", "Skip next"), ("ring", "Ring it now")] {
            var button = entity(key, name)
            button.commandTopic = topics.alarm(alarm.id, "\(key)/press")
            button.payloadPress = press
            configs.append(HomeMessage(topics.config("button", object(key)), encode(button)))
        }
        var time = entity("time", "Time")
        time.stateTopic = topics.alarm(alarm.id, "time")
        time.commandTopic = topics.alarm(alarm.id, "time/set")
        time.pattern = timePattern
        time.min = 5
        time.max = 5
        var events = entity("event", "Events")
        events.stateTopic = topics.alarm(alarm.id, "event")
        events.eventTypes = AlarmEvent.Kind.allCases.map(\.rawValue)
        configs += [HomeMessage(topics.config("text", object("time")), encode(time)), HomeMessage(topics.config("event", object("event")), encode(events))]
        return configs + [
            HomeMessage(topics.alarm(alarm.id, "on"), alarm.isOn ? on : off),
            HomeMessage(topics.alarm(alarm.id, "voice"), alarm.voice ? on : off),
            HomeMessage(topics.alarm(alarm.id, "next"), alarm.next.map { LocalTimeText.iso($0, zone) } ?? none),
            HomeMessage(topics.alarm(alarm.id, "state"), alarm.state.rawValue),
            HomeMessage(topics.alarm(alarm.id, "time"), alarm.time.description),
        ]
    }

    // MARK: - Payloads

    /// A discovery device.
    private struct Device: Encodable {
        var identifiers: [String], name: String, manufacturer: String, model: String, swVersion: String?, viaDevice: String?
    }

    /// A discovery config: the fields any of the entities here use (absent ones are left out).
    private struct Config: Encodable {
        var name: String, uniqueId: String, objectId: String, availabilityTopic: String, device: Device
        var stateTopic: String?, commandTopic: String?, jsonAttributesTopic: String?
        var deviceClass: String?, entityCategory: String?, options: [String]?, eventTypes: [String]?
        var payloadOn: String?, payloadOff: String?, payloadPress: String?
        var pattern: String?, min: Int?, max: Int?
        var origin = ["name": "VoiceAlarm"]
    }

    private static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { preconditionFailure("a discovery config always encodes") }
        return String(decoding: data, as: UTF8.self)
    }

    private static func json(_ fields: [String: String]) -> String { encode(fields) }
}
