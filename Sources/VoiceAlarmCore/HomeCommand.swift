import Foundation

/// A command Home Assistant sent over MQTT, read from its topic and payload: what a paired phone
/// may do, and nothing else. Parsing is strict and bounded — a payload longer than
/// `maximumPayload` bytes, not UTF-8, or not what the topic takes is refused with the reason, and
/// nothing is done.
package enum HomeCommand: Equatable, Sendable {
    case stop
    case snooze
    /// "I'm up": cancels a snooze that waits.
    case imUp
    case setOn(UUID, Bool)
    case setVoice(UUID, Bool)
    case skipNext(UUID)
    case ringNow(UUID)
    /// Changes the alarm's time (an `alarm edit --at`).
    case setTime(UUID, AlarmTime)

    /// The longest payload any command takes, in bytes.
    package static let maximumPayload = 64

    /// Why a message was not a command (said in one log line; nothing changed).
    package enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        case tooLong(topic: String, bytes: Int)
        case notUTF8(topic: String)
        case unknownTopic(String)
        case badPayload(topic: String, payload: String, expected: String)

        package var description: String {
            switch self {
            case .tooLong(let topic, let bytes): "\(topic): a payload of \(bytes) bytes (at most \(HomeCommand.maximumPayload))"
            case .notUTF8(let topic): "\(topic): the payload is not UTF-8 text"
            case .unknownTopic(let topic): "\(topic): no command is sent there"
            case .badPayload(let topic, let payload, let expected): "\(topic): '\(payload)' is not \(expected)"
            }
        }
    }

    /// The command `payload` on `topic` is, or why it is none.
    package static func parse(topic: String, payload: [UInt8], topics: HomeTopics) -> Result<HomeCommand, Refusal> {
        guard payload.count <= maximumPayload else { return .failure(.tooLong(topic: shown(topic), bytes: payload.count)) }
        guard let text = String(validating: payload, as: UTF8.self) else { return .failure(.notUTF8(topic: shown(topic))) }
        let prefix = topics.base + "/"
        guard topic.hasPrefix(prefix) else { return .failure(.unknownTopic(shown(topic))) }
        let levels = topic.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let value = text.trimmingCharacters(in: .whitespaces)
        func pressed(_ command: HomeCommand) -> Result<HomeCommand, Refusal> {
            value == HomeDiscovery.press ? .success(command) : .failure(.badPayload(topic: topic, payload: shown(value), expected: "PRESS"))
        }
        func toggled(_ make: (Bool) -> HomeCommand) -> Result<HomeCommand, Refusal> {
            switch value {
            case HomeDiscovery.on: .success(make(true))
            case HomeDiscovery.off: .success(make(false))
            default: .failure(.badPayload(topic: topic, payload: shown(value), expected: "ON or OFF"))
            }
        }
        switch levels {
        case ["stop", "press"]: return pressed(.stop)
        case ["snooze", "press"]: return pressed(.snooze)
        case ["up", "press"]: return pressed(.imUp)
        case let parts where parts.count == 4 && parts[0] == "alarm":
            // Ids are written lower case; anything else is no alarm of ours.
            guard let id = UUID(uuidString: parts[1]), id.uuidString.lowercased() == parts[1] else { return .failure(.unknownTopic(shown(topic))) }
            switch (parts[2], parts[3]) {
            case ("on", "set"): return toggled { .setOn(id, $0) }
            case ("voice", "set"): return toggled { .setVoice(id, $0) }
            case ("skip", "press"): return pressed(.skipNext(id))
            case ("ring", "press"): return pressed(.ringNow(id))
            case ("time", "set"):
                guard value.count == 5, let time = AlarmTime(parsing: value) else {
                    return .failure(.badPayload(topic: topic, payload: shown(value), expected: "a time (HH:MM, 00:00 to 23:59)"))
                }
                return .success(.setTime(id, time))
            default: return .failure(.unknownTopic(shown(topic)))
            }
        default: return .failure(.unknownTopic(shown(topic)))
        }
    }

    /// Text from the broker as a log line may show it: printable, and short.
    private static func shown(_ text: String) -> String { PrintableText.escaped(String(text.prefix(120))) }
}
