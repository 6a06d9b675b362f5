/// Takes a command line apart against the command table.
///
/// Global options are accepted anywhere, before or after the subcommand; `--name=value` and
/// `--name value` both work; `--` ends the options. Anything that does not fit the table is a
/// `UsageError`.
public struct ArgumentParser: Sendable {
    public let globalOptions: [OptionSpec]
    public let commands: [CommandSpec]

    public init(globalOptions: [OptionSpec], commands: [CommandSpec]) {
        self.globalOptions = globalOptions
        self.commands = commands
    }

    public func command(named name: String) -> CommandSpec? { commands.first { $0.name == name } }

    /// The commands of a group (`clip` → `clip import`, `clip list`, …).
    public func commands(inGroup group: String) -> [CommandSpec] { commands.filter { $0.name.hasPrefix(group + " ") } }

    public func parse(_ arguments: [String]) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var spec: CommandSpec?
        var remaining = arguments[...]
        var optionsEnded = false

        while let token = remaining.popFirst() {
            if optionsEnded || token == "-" || !token.hasPrefix("-") {
                if spec == nil, !optionsEnded {
                    if let group = parsed.group {
                        guard let found = command(named: "\(group) \(token)") else {
                            throw UsageError("unknown \(group) command '\(token)'", command: group)
                        }
                        spec = found
                        parsed.command = found.name
                    } else if let found = command(named: token) {
                        spec = found
                        parsed.command = token
                    } else if !commands(inGroup: token).isEmpty {
                        parsed.group = token
                    } else {
                        throw UsageError("unknown command '\(token)'", command: nil)
                    }
                } else {
                    parsed.arguments.append(token)
                }
                continue
            }
            if token == "--" { optionsEnded = true; continue }

            let (option, inlineValue) = try resolve(token, in: spec)
            if option.takesValue {
                guard let value = inlineValue ?? remaining.popFirst() else {
                    throw UsageError("--\(option.name) needs a value (\(option.valueName!))", command: spec?.name)
                }
                parsed.values[option.name] = value
            } else {
                if inlineValue != nil {
                    throw UsageError("--\(option.name) takes no value", command: spec?.name)
                }
                parsed.values[option.name] = ""
            }
        }

        if spec == nil, let group = parsed.group, !parsed.has("help") {
            let names = commands(inGroup: group).map { String($0.name.dropFirst(group.count + 1)) }.joined(separator: ", ")
            throw UsageError("missing \(group) command (\(names))", command: group)
        }
        if let spec, !parsed.has("help") {
            if parsed.arguments.count < spec.minimumArguments {
                throw UsageError("missing \(spec.arguments) for '\(spec.name)'", command: spec.name)
            }
            if let maximum = spec.maximumArguments, parsed.arguments.count > maximum {
                throw UsageError("unexpected argument '\(parsed.arguments[maximum])'", command: spec.name)
            }
        }
        return parsed
    }

    /// Finds the option a token names, among the global ones and the current command's.
    private func resolve(_ token: String, in spec: CommandSpec?) throws -> (OptionSpec, String?) {
        let known = globalOptions + (spec?.options ?? [])
        if token.hasPrefix("--") {
            let body = token.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let value = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            guard let option = known.first(where: { $0.name == name }) else {
                throw UsageError("unknown option '--\(name)'", command: spec?.name)
            }
            return (option, value)
        }
        let letter = token.dropFirst()
        guard let first = letter.first, let option = known.first(where: { $0.short == first }) else {
            throw UsageError("unknown option '\(token)'", command: spec?.name)
        }
        let attached = letter.dropFirst()
        if attached.isEmpty { return (option, nil) }
        guard option.takesValue else { throw UsageError("unknown option '\(token)'", command: spec?.name) }
        return (option, String(attached))
    }
}
