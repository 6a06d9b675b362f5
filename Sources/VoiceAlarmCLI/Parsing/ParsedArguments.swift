/// A command line taken apart: which command, which options with which values, which arguments.
///
/// Commands read options through their declarations: `parsed[Self.all]` (a `Flag`: given or not),
/// `try parsed[Self.cap]` (an `Option`: its value checked and typed, or its default).
package struct ParsedArguments: Equatable {
    package var command: String?
    /// The group named when no command of it followed yet (`voicealarm clip --help`).
    package var group: String?
    /// Options given, by long name; a flag's value is "".
    package var values: [String: String] = [:]
    package var arguments: [String] = []

    /// Whether an option was given, by long name: for a program reading a parse (commands read
    /// through the declarations below).
    package func has(_ name: String) -> Bool { values[name] != nil }
    /// The text an option was given, by long name (commands read through the declarations below).
    package func value(_ name: String) -> String? { values[name] }

    /// Whether the flag was given.
    subscript(flag: Flag) -> Bool { values[flag.spec.name] != nil }

    /// The option's value as its declaration reads it, or its default when not given.
    /// - Throws: `UsageError` naming the option when the declaration refuses the text given.
    subscript<Value>(option: Option<Value>) -> Value {
        get throws {
            guard let text = values[option.spec.name] else { return option.absent() }
            do {
                return try option.read(text)
            } catch let refusal as OptionRefusal {
                throw UsageError("\(option.spec.dashed): \(refusal.reason)", command: command, input: refusal.pointsAtOption ? option.spec.dashed : nil)
            }
        }
    }

    /// Whether the option was given (even with a value its default equals).
    func given(_ option: some DeclaredOption) -> Bool { values[option.spec.name] != nil }

    /// The text given for the option, unread: for messages that quote it.
    func text(of option: some DeclaredOption) -> String? { values[option.spec.name] }

    /// A whole number argument at `index` (a playlist position), or a usage error.
    func integerArgument(_ index: Int, named name: String) throws -> Int {
        guard let value = Int(arguments[index]) else {
            throw UsageError("\(name): '\(arguments[index])' is not a whole number", command: command, input: arguments[index])
        }
        return value
    }
}
