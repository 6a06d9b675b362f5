/// An option without a value, declared once: `parsed[Self.all]` is whether it was given.
///
/// ```swift
/// static let all = Flag("all", short: "a", help: "Also list one-off alarms that have rung")
/// let statuses = parsed[Self.all] ? all : live
/// ```
struct Flag: DeclaredOption {
    let spec: OptionSpec

    init(_ name: String, short: Character? = nil, help: String) {
        spec = OptionSpec(name, short: short, help: help, kind: .flag)
    }
}
