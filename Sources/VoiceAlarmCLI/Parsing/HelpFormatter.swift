/// Writes `--help` from the same tables the parser reads.
struct HelpFormatter {
    let parser: ArgumentParser
    /// The commands `topLevel` lists first, under "your first voice alarm" (`FirstAlarm`).
    var firstSteps: [String] = []

    func topLevel() -> String {
        var lines = [
            "voicealarm: wake up to your own voice.",
            "",
            "usage: voicealarm <command> [options] [arguments]",
        ]
        let width = (parser.commands.map(\.name.count).max() ?? 0) + 2
        let first = firstSteps.compactMap { parser.command(named: $0) }
        if !first.isEmpty {
            lines += ["", "your first voice alarm:"]
            lines += first.map { "  " + pad($0.name, width) + $0.summary }
        }
        lines += ["", first.isEmpty ? "commands:" : "all commands:"]
        for command in parser.commands {
            lines.append("  " + pad(command.name, width) + command.summary)
        }
        lines += ["", "options for every command:"]
        lines += optionLines(parser.globalOptions)
        lines += ["", "See 'voicealarm <command> --help' for a command's options."]
        return lines.joined(separator: "\n") + "\n"
    }

    func group(_ name: String) -> String {
        let members = parser.commands(inGroup: name)
        let width = (members.map(\.name.count).max() ?? 0) + 2
        var lines = ["usage: voicealarm \(name) <command> [options] [arguments]", "", "commands:"]
        lines += members.map { "  " + pad($0.name, width) + $0.summary }
        lines += ["", "See 'voicealarm \(name) <command> --help' for a command's options."]
        return lines.joined(separator: "\n") + "\n"
    }

    func command(_ spec: CommandSpec) -> String {
        var lines = [
            "voicealarm \(spec.name): \(spec.summary)",
            "",
            "usage: voicealarm \(spec.name) [options] \(spec.arguments)",
        ]
        if !spec.discussion.isEmpty { lines += ["", spec.discussion] }
        if !spec.options.isEmpty {
            lines += ["", "options:"]
            lines += optionLines(spec.options)
        }
        lines += ["", "options for every command:"]
        lines += optionLines(parser.globalOptions)
        if !spec.examples.isEmpty {
            lines += ["", "examples:"]
            lines += spec.examples.map { "  \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func optionLines(_ options: [OptionSpec]) -> [String] {
        let width = (options.map(\.synopsis.count).max() ?? 0) + 2
        return options.map { "  " + pad($0.synopsis, width) + $0.help }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }
}
