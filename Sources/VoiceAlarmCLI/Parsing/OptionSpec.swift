/// One option a command (or every command) accepts, as the command table holds it: what the
/// parser, `--help`, the man pages and the completions read. Commands declare options as `Flag`
/// and `Option` values, which carry this spec and read the value.
package struct OptionSpec: DeclaredOption {
    /// The long name without dashes, e.g. `cap`.
    package var name: String
    /// A one-letter alias without the dash, e.g. `o`.
    package var short: Character?
    /// The placeholder shown in help when the option takes a value (`SECONDS`); nil for a flag.
    package var valueName: String?
    package var help: String
    /// What the value is.
    package var kind: ValueKind
    /// Whether it may be given more than once: its values are then read as one comma-separated
    /// list (`--date A --date B` is `--date A,B`), for values that hold no comma.
    package var repeatable = false

    package init(_ name: String, short: Character? = nil, value valueName: String? = nil, help: String, kind: ValueKind) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.help = help
        self.kind = kind
    }

    package var spec: OptionSpec { self }

    package var takesValue: Bool { valueName != nil }

    /// The values the option takes when they are a fixed set (formats, codecs, days): what shell
    /// completion offers. Nil for free values (paths, numbers, text).
    package var choices: [String]? { kind.offered }

    /// `--cap`, as messages name the option.
    var dashed: String { "--\(name)" }

    /// How the option appears in help: `-o, --output FILE`.
    var synopsis: String {
        var text = short.map { "-\($0), " } ?? "    "
        text += "--\(name)"
        if let valueName { text += " \(valueName)" }
        return text
    }

    /// The shortest way to write it with its value, as a message asks for it: `-o OUT`, `--at HH:MM`.
    var usage: String {
        (short.map { "-\($0)" } ?? dashed) + (valueName.map { " \($0)" } ?? "")
    }
}
