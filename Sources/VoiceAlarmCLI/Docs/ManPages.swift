/// `voicealarm(1)` and one page per command or group (`voicealarm-render(1)`,
/// `voicealarm-clip(1)`…), written from the same `CommandSpec`s that parse the command line and
/// print `--help`, so the pages never drift from the program.
package enum ManPages {
    /// Every page: file name (`voicealarm-clip.1`) and roff text.
    package static func all(_ parser: ArgumentParser = VoiceAlarmTool.parser) -> [(file: String, text: String)] {
        var pages = [("voicealarm.1", top(parser))]
        for topic in topics(parser) {
            pages.append(("voicealarm-\(topic.name).1", page(topic.name, topic.commands, parser)))
        }
        return pages
    }

    /// The commands grouped as the pages are: a group's commands together, every other command alone.
    static func topics(_ parser: ArgumentParser) -> [(name: String, commands: [CommandSpec])] {
        var topics: [(name: String, commands: [CommandSpec])] = []
        for spec in parser.commands where spec.name != "help" {
            let name = String(spec.name.split(separator: " ")[0])
            if let index = topics.firstIndex(where: { $0.name == name }) { topics[index].commands.append(spec) } else { topics.append((name, [spec])) }
        }
        return topics
    }

    private static func header(_ name: String, _ summary: String) -> [String] {
        [
            ".\\\" Written by voicealarm-docs from VoiceAlarm's command tables; do not edit.",
            ".TH \(name.uppercased()) 1 \"\" \"VoiceAlarm \(Version.current)\" \"VoiceAlarm Manual\"",
            ".SH NAME", "\(escape(name)) \\- \(escape(summary))",
        ]
    }

    private static func top(_ parser: ArgumentParser) -> String {
        var lines = header("voicealarm", "wake up to your own voice")
        lines += [
            ".SH SYNOPSIS", ".B voicealarm", "\\fICOMMAND\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]", ".SH DESCRIPTION",
            "VoiceAlarm turns short recordings of your own voice into alarm ringtones (stitched in order under a 29-second cap,",
            "loudness-normalised, checked before use) and keeps each alarm's scheduler in step with them.",
            ".SH COMMANDS",
        ]
        for spec in parser.commands where spec.name != "help" {
            lines += [".TP", ".B voicealarm \(escape(spec.name))", escape(spec.summary)]
        }
        lines += [".SH OPTIONS FOR EVERY COMMAND"] + options(parser.globalOptions)
        lines += [
            ".SH FILES", ".TP", ".I ~/.local/share/voicealarm",
            "The library (else \\fB$VOICEALARM_HOME\\fR or \\fB$XDG_DATA_HOME/voicealarm\\fR): the database, clips, Sounds, the event log.",
        ]
        lines += [".SH EXIT STATUS", "0 done; 1 a well-formed request that failed; 64 a malformed command line."]
        lines +=
            [".SH EXAMPLES", "Your first voice alarm: a recording, a playlist, an alarm, something that rings it, and a test.", ".PP", ".nf"]
            + FirstAlarm.example.map { "  " + escape($0) } + [".fi"]
        lines += [".SH SEE ALSO"] + [topics(parser).map { "\\fBvoicealarm\\-\(escape($0.name))\\fR(1)" }.joined(separator: ", ")]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func page(_ name: String, _ commands: [CommandSpec], _ parser: ArgumentParser) -> String {
        let summary = commands.count == 1 ? commands[0].summary : "the \(name) commands"
        var lines = header("voicealarm-\(name)", summary)
        lines.append(".SH SYNOPSIS")
        for spec in commands {
            lines += [".B voicealarm \(escape(spec.name))", "[\\fIoptions\\fR] \(escape(spec.arguments))", ".br"]
        }
        for spec in commands {
            lines.append(commands.count == 1 ? ".SH DESCRIPTION" : ".SH \(escape(spec.name.uppercased()))")
            lines.append(escape(spec.summary) + ".")
            if !spec.discussion.isEmpty {
                lines += [".PP"] + spec.discussion.split(separator: "\n").map { escape($0.trimmingCharacters(in: .whitespaces)) }
            }
            if !spec.options.isEmpty { lines += [".SS Options"] + options(spec.options) }
            if !spec.examples.isEmpty {
                lines += [".SS Examples", ".nf"] + spec.examples.map { "  " + escape($0) } + [".fi"]
            }
        }
        lines += [".SH OPTIONS FOR EVERY COMMAND"] + options(parser.globalOptions)
        lines += [".SH SEE ALSO", "\\fBvoicealarm\\fR(1)"]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func options(_ options: [OptionSpec]) -> [String] {
        options.flatMap { option -> [String] in
            var synopsis = option.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
            synopsis += "\\fB\\-\\-\(escape(option.name))\\fR"
            if let value = option.valueName { synopsis += " \\fI\(escape(value))\\fR" }
            return [".TP", synopsis, escape(option.help)]
        }
    }

    /// Text made safe for roff: backslashes doubled, hyphens as `\-`, characters past ASCII as
    /// `\[uXXXX]` (groff reads its input as Latin-1), no line starting with a control character.
    static func escape<S: StringProtocol>(_ text: S) -> String {
        var escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        escaped = escaped.unicodeScalars.map { $0.isASCII ? String($0) : String(format: "\\[u%04X]", $0.value) }.joined()
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }
}
