/// A command line taken apart: which command, which options with which values, which arguments.
public struct ParsedArguments: Equatable {
    public var command: String?
    /// The group named when no command of it followed yet (`voicealarm clip --help`).
    public var group: String?
    /// Options given, by long name; a flag's value is "".
    public var values: [String: String] = [:]
    public var arguments: [String] = []

    public func has(_ name: String) -> Bool { values[name] != nil }

    /// A whole number argument at `index` (a playlist position), or a usage error.
    func integerArgument(_ index: Int, named name: String) throws -> Int {
        guard let value = Int(arguments[index]) else {
            throw UsageError("\(name): '\(arguments[index])' is not a whole number", command: command, input: arguments[index])
        }
        return value
    }
    public func value(_ name: String) -> String? { values[name] }

    /// A number option, validated against `range`; a value that is not a number or is out of range is a usage error.
    func number(_ name: String, in range: ClosedRange<Double>? = nil, exclusiveUpper: Double? = nil,
                exclusiveLower: Double? = nil, default fallback: Double) throws -> Double {
        guard let text = values[name] else { return fallback }
        guard let number = Double(text), number.isFinite else {
            throw UsageError("--\(name): '\(text)' is not a number", command: command, input: "--\(name)")
        }
        if let range, !range.contains(number) {
            throw UsageError("--\(name): \(text) is out of range (\(Self.format(range.lowerBound))...\(Self.format(range.upperBound)))", command: command, input: "--\(name)")
        }
        if let lower = exclusiveLower, let upper = exclusiveUpper, !(number > lower && number < upper) {
            throw UsageError("--\(name): \(text) must be more than \(Self.format(lower)) and less than \(Self.format(upper))", command: command, input: "--\(name)")
        }
        return number
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
