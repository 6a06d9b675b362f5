/// Takes a command line apart against the command table.
///
/// Global options are accepted anywhere, before or after the subcommand; `--name=value` and
/// `--name value` both work; `--` ends the options. Anything that does not fit the table is a
/// `UsageError`.
package struct ArgumentParser: Sendable {
    package let globalOptions: [OptionSpec]
    package let commands: [CommandSpec]

    package init(globalOptions: [OptionSpec], commands: [CommandSpec]) {
        self.globalOptions = globalOptions
        self.commands = commands
    }

    package func command(named name: String) -> CommandSpec? { commands.first { $0.name == name } }

    /// The commands of a group (`clip` → `clip import`, `clip list`, …).
    package func commands(inGroup group: String) -> [CommandSpec] { commands.filter { $0.name.hasPrefix(group + " ") } }

    /// - Throws: `UsageError`, which says whether `--json` was asked for: from what was parsed,
    ///   else from the words not yet read (so even a line that fails early gets its JSON error).
    package func parse(_ arguments: [String]) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        do {
            return try parse(arguments, into: &parsed)
        } catch var error as UsageError {
            let json = GlobalOptions.json.spec.dashed
            error.jsonRequested = parsed[GlobalOptions.json] || arguments.prefix(while: { $0 != "--" }).contains { $0 == json || $0.hasPrefix(json + "=") }
            throw error
        }
    }

    private func parse(_ arguments: [String], into parsed: inout ParsedArguments) throws -> ParsedArguments {
        var spec: CommandSpec?
        var remaining = arguments[...]
        var optionsEnded = false

        while let token = remaining.popFirst() {
            // A negative number (settings target-lufs -18) is an argument: no option starts with a digit.
            if optionsEnded || token == "-" || !token.hasPrefix("-") || Double(token) != nil {
                if spec == nil, !optionsEnded {
                    if let group = parsed.group {
                        guard let found = command(named: "\(group) \(token)") else { throw unknownCommand(token, in: group) }
                        spec = found
                        parsed.command = found.name
                    } else if let next = remaining.first, let found = command(named: "\(token) \(next)") {
                        // A command that also heads a group (`serve`, `serve devices`): the longer name wins.
                        remaining.removeFirst()
                        spec = found
                        parsed.command = found.name
                    } else if let found = command(named: token) {
                        spec = found
                        parsed.command = token
                    } else if !commands(inGroup: token).isEmpty {
                        parsed.group = token
                    } else {
                        throw unknownCommand(token, in: nil)
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
                    throw UsageError("--\(option.name) needs a value (\(option.valueName!))", command: spec?.name, input: "--\(option.name)")
                }
                // One value each (a list for a repeatable one): a second is a mistake to say, not a
                // value to pick silently.
                if let first = parsed.values[option.name], option.repeatable {
                    parsed.values[option.name] = first + "," + value
                    continue
                }
                if let first = parsed.values[option.name] {
                    throw UsageError("--\(option.name) given twice ('\(first)' and '\(value)'): give it once", command: spec?.name, input: "--\(option.name)")
                }
                parsed.values[option.name] = value
            } else {
                if inlineValue != nil {
                    throw UsageError("--\(option.name) takes no value", command: spec?.name, input: "--\(option.name)")
                }
                parsed.values[option.name] = ""
            }
        }

        if spec == nil, let group = parsed.group, !parsed[GlobalOptions.help] {
            let names = commands(inGroup: group).map { String($0.name.dropFirst(group.count + 1)) }.joined(separator: ", ")
            throw UsageError("missing \(group) command (\(names))", command: group, input: group)
        }
        if let spec, !parsed[GlobalOptions.help] {
            if parsed.arguments.count < spec.minimumArguments {
                throw UsageError("missing \(spec.arguments) for '\(spec.name)'", command: spec.name, input: spec.name)
            }
            if let maximum = spec.maximumArguments, parsed.arguments.count > maximum {
                throw UsageError("unexpected argument '\(parsed.arguments[maximum])'", command: spec.name, input: parsed.arguments[maximum])
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
                throw unknownOption("--\(name)", near: known.map { "--\($0.name)" }, in: spec)
            }
            return (option, value)
        }
        let letter = token.dropFirst()
        guard let first = letter.first, let option = known.first(where: { $0.short == first }) else {
            throw unknownOption(token, near: known.map { "--\($0.name)" }, in: spec)
        }
        let attached = letter.dropFirst()
        if attached.isEmpty { return (option, nil) }
        guard option.takesValue else { throw unknownOption(token, near: [], in: spec) }
        return (option, String(attached))
    }

    /// An unknown command word, with the closest commands (as git's "did you mean").
    /// The other words people use for changing an alarm are offered `alarm edit`.
    private func unknownCommand(_ word: String, in group: String?) -> UsageError {
        if group == "alarm", ["change", "modify", "update", "set"].contains(word.lowercased()) {
            return UsageError("unknown alarm command '\(word)'; did you mean 'alarm edit'?", command: "alarm", input: "alarm \(word)")
        }
        let full = group.map { "\($0) \(word)" } ?? word
        var offered: [String]
        if let group {
            let words = commands(inGroup: group).map { String($0.name.dropFirst(group.count + 1)) }
            offered = Suggestion.closest(to: word, among: words).map { "\(group) \($0)" }
        } else {
            // `voicealarm list` names the second word of commands: offer those, then close top-level words.
            let topLevel = commands.map { String($0.name.split(separator: " ")[0]) }
            offered = commands.filter { $0.name.hasSuffix(" \(word)") }.map(\.name)
            offered += Suggestion.closest(to: word, among: topLevel).filter { !offered.contains($0) }
            if offered.isEmpty {  // `voicealarm lst` → the commands whose second word is close
                let seconds = commands.filter { $0.name.contains(" ") }
                let close = Set(Suggestion.closest(to: word, among: seconds.map { String($0.name.split(separator: " ")[1]) }, limit: 10))
                offered = seconds.map(\.name).filter { close.contains(String($0.split(separator: " ")[1])) }
            }
        }
        let message = "unknown \(group.map { "\($0) " } ?? "")command '\(word)'"
        guard !offered.isEmpty else { return UsageError(message, command: group, input: full) }
        let quoted = offered.prefix(3).map { "'\($0)'" }
        let list = quoted.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
        return UsageError("\(message); did you mean \(list)?", command: group, input: full)
    }

    /// An unknown option, with the closest ones this command takes.
    private func unknownOption(_ token: String, near known: [String], in spec: CommandSpec?) -> UsageError {
        let name = String(token.prefix { $0 != "=" })
        if let elsewhere = spec.flatMap({ Self.elsewhere[$0.name]?[name] }) {
            return UsageError("unknown option '\(name)'; \(elsewhere)", command: spec?.name, input: name)
        }
        let suggestion = Suggestion.phrase(for: name, among: known).map { "; \($0)" } ?? ""
        return UsageError("unknown option '\(name)'\(suggestion)", command: spec?.name, input: name)
    }

    /// Options people reach for on one command that another command does: command → option → where.
    static let elsewhere: [String: [String: String]] = [
        "clip import": ["--replace": "to give a clip new audio: voicealarm clip replace CLIP FILE"]
    ]
}
