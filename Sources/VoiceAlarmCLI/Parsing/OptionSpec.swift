/// One option a command (or every command) accepts.
public struct OptionSpec: Sendable {
    /// The long name without dashes, e.g. `cap`.
    public var name: String
    /// A one-letter alias without the dash, e.g. `o`.
    public var short: Character?
    /// The placeholder shown in help when the option takes a value (`SECONDS`); nil for a flag.
    public var valueName: String?
    public var help: String
    /// The values the option takes when they are a fixed set (formats, codecs, days): what shell
    /// completion offers. Nil for free values (paths, numbers, text).
    public var choices: [String]?

    public init(_ name: String, short: Character? = nil, value valueName: String? = nil, help: String, choices: [String]? = nil) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.help = help
        self.choices = choices
    }

    public var takesValue: Bool { valueName != nil }

    /// How the option appears in help: `-o, --output FILE`.
    var synopsis: String {
        var text = short.map { "-\($0), " } ?? "    "
        text += "--\(name)"
        if let valueName { text += " \(valueName)" }
        return text
    }
}
