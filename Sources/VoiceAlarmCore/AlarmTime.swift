/// A wall-clock time of day, to the minute.
public struct AlarmTime: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// 0 to 23.
    public var hour: Int
    /// 0 to 59.
    public var minute: Int

    /// A time of day; `hour` 0…23 and `minute` 0…59, else a trap (a bug in the caller:
    /// parse a person's text with `init?(parsing:)`).
    public init(hour: Int, minute: Int) {
        precondition((0...23).contains(hour) && (0...59).contains(minute), "time \(hour):\(minute) out of range")
        self.hour = hour
        self.minute = minute
    }

    /// Parses `H:MM` or `HH:MM` (00:00…23:59); nil for anything else (`7`, `25:61`, `7:5`).
    /// Why `text` is not a time, in the words every front end uses.
    package static func refusal(_ text: String) -> String { "'\(text)' is not a time (HH:MM, 00:00 to 23:59)" }

    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]),
            (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        self.init(hour: hour, minute: minute)
    }

    /// Decodes a time kept by a scheduler or a file (which anyone may edit), refusing one out of range.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let hour = try container.decode(Int.self, forKey: .hour), minute = try container.decode(Int.self, forKey: .minute)
        guard (0...23).contains(hour), (0...59).contains(minute) else {
            throw DecodingError.dataCorruptedError(forKey: .hour, in: container, debugDescription: "time \(hour):\(minute) out of range")
        }
        self.init(hour: hour, minute: minute)
    }

    /// `07:05`.
    public var description: String {
        (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    /// Earlier in the day.
    public static func < (a: AlarmTime, b: AlarmTime) -> Bool { (a.hour, a.minute) < (b.hour, b.minute) }
}
