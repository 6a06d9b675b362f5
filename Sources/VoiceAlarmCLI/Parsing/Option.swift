/// An option that takes a value, declared once with what the value is: the command table, `--help`,
/// the man pages and the completions read its `spec`; a command reads the value, checked, as
/// `Value` (`parsed[Self.cap]`). A value the declaration refuses is a usage error (exit 64) that
/// names the option: `--cap: 40 must be more than 0 and less than 30`.
///
/// In help, `{range}` and `{default}` stand for the declared bounds and default, so the numbers
/// are written once.
///
/// ```swift
/// static let gap: Option<Double?> = .number("gap", value: "SECONDS", .closed(RenderSettings.gapRange),
///                                           help: "Silence between clips, {range} (default 0.3)")
/// if let gap = try parsed[Self.gap] { … }   // nil when not given
/// ```
struct Option<Value>: DeclaredOption {
    let spec: OptionSpec
    /// The value when the option is not given: nil, or the declared default.
    let absent: @Sendable () -> Value
    /// The value of the text given; throws `OptionRefusal` for a text the option does not take.
    let read: @Sendable (String) throws -> Value
}

extension Option {
    /// Any value, read by `read` from the text given (which throws `OptionRefusal` to refuse it).
    static func reading<T>(
        _ name: String, short: Character? = nil, value: String, kind: ValueKind = .text, help: String,
        _ read: @escaping @Sendable (String) throws -> T
    ) -> Option<T?> {
        Option<T?>(spec: OptionSpec(name, short: short, value: value, help: help, kind: kind), absent: { nil }, read: read)
    }

    /// This option, repeatable: given more than once, its values are read as one comma-separated list.
    func repeatable() -> Option {
        var spec = self.spec
        spec.repeatable = true
        return Option(spec: spec, absent: absent, read: read)
    }

    /// Text as given (a path, a name, a label); `problem` says why a text is refused, nil when it is taken.
    static func text(
        _ name: String, short: Character? = nil, value: String, kind: ValueKind = .text, help: String,
        problem: @escaping @Sendable (String) -> String? = { _ in nil }
    ) -> Option<String?> {
        reading(name, short: short, value: value, kind: kind, help: help) { text in
            if let problem = problem(text) { throw OptionRefusal(problem) }
            return text
        }
    }

    /// A number within `bounds`; nil when not given.
    static func number(_ name: String, short: Character? = nil, value: String, _ bounds: NumberBounds, help: String) -> Option<Double?> {
        Option<Double?>(
            spec: OptionSpec(name, short: short, value: value, help: filled(help, range: bounds.phrase), kind: .number(bounds)),
            absent: { nil }, read: { try number($0, within: bounds) })
    }

    /// A number within `bounds`; `fallback` when not given.
    static func number(
        _ name: String, short: Character? = nil, value: String, _ bounds: NumberBounds, default fallback: Double,
        help: String
    ) -> Option<Double> {
        Option<Double>(
            spec: OptionSpec(
                name, short: short, value: value,
                help: filled(help, range: bounds.phrase, default: NumberBounds.format(fallback)), kind: .number(bounds)),
            absent: { fallback }, read: { try number($0, within: bounds) })
    }

    /// A whole number of `unit` within `range`; nil when not given.
    static func wholeNumber(_ name: String, value: String, in range: ClosedRange<Int>, of unit: String, help: String) -> Option<Int?> {
        reading(name, value: value, kind: .wholeNumber(range), help: filled(help, range: "\(range.lowerBound) to \(range.upperBound)")) { text in
            guard let number = Int(text), range.contains(number) else {
                throw OptionRefusal("'\(text)' is not a whole number of \(unit) from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
    }

    /// One of `choices` (word and value), matched ignoring case when asked; nil when not given.
    /// `refusal` words a text that is none of them, given all the words.
    static func choice<C: Sendable>(
        _ name: String, value: String, help: String, _ choices: [(word: String, value: C)],
        offered: [String]? = nil, ignoringCase: Bool,
        refusal: @escaping @Sendable (_ text: String, _ words: [String]) -> String
    ) -> Option<C?> {
        let words = choices.map(\.word)
        return reading(name, value: value, kind: .choice(offered: offered ?? words), help: help) { text in
            let key = ignoringCase ? text.lowercased() : text
            guard let match = choices.first(where: { $0.word == key }) else { throw OptionRefusal(refusal(text, words)) }
            return match.value
        }
    }

    /// One of `choices`, as above; `fallback` when not given.
    static func choice<C: Sendable>(
        _ name: String, value: String, help: String, _ choices: [(word: String, value: C)],
        default fallback: C, ignoringCase: Bool,
        refusal: @escaping @Sendable (_ text: String, _ words: [String]) -> String
    ) -> Option<C> {
        let optional = Option<C?>.choice(name, value: value, help: help, choices, ignoringCase: ignoringCase, refusal: refusal)
        return Option<C>(spec: optional.spec, absent: { fallback }, read: { try optional.read($0) ?? fallback })
    }

    private static func number(_ text: String, within bounds: NumberBounds) throws -> Double {
        guard let number = Double(text), number.isFinite else { throw OptionRefusal("'\(text)' is not a number") }
        guard bounds.contains(number) else { throw OptionRefusal(bounds.refusal(of: text)) }
        return number
    }

    /// `help` with `{range}` and `{default}` written out.
    private static func filled(_ help: String, range: String, default fallback: String? = nil) -> String {
        var text = help.replacingOccurrences(of: "{range}", with: range)
        if let fallback { text = text.replacingOccurrences(of: "{default}", with: fallback) }
        precondition(!text.contains("{range}") && !text.contains("{default}"), "\(help): a placeholder without a value")
        return text
    }
}
