import Foundation

/// Shell completions for bash, zsh and fish, written from the command tables: commands and
/// groups, each command's options and the global ones, the fixed values an option takes
/// (`OptionSpec.choices`), and — asking the library itself — clip and alarm ids and playlist names.
package enum Completions {
    /// Every script: file name and text.
    package static func all(_ parser: ArgumentParser = VoiceAlarmTool.parser) -> [(file: String, text: String)] {
        [("voicealarm.bash", bash(parser)), ("_voicealarm", zsh(parser)), ("voicealarm.fish", fish(parser))]
    }

    static let banner = "# Written by voicealarm-docs from VoiceAlarm's command tables; do not edit."

    /// What an argument position holds, from the placeholder in `CommandSpec.arguments`.
    enum ArgumentKind: String { case clip, alarm, target, listenable, file, other }

    static func argumentKinds(_ spec: CommandSpec) -> [ArgumentKind] {
        spec.arguments.split(separator: " ").filter { !$0.hasPrefix("-") && !$0.hasPrefix("[--") && $0 != "|" }.compactMap { word -> ArgumentKind? in
            let name = word.trimmingCharacters(in: CharacterSet(charactersIn: "[].")).uppercased()
            switch name {
            case "CLIP": return .clip
            case "ALARM": return .alarm
            case "NAME", "TARGET": return .target
            case "FILE", "IN", "MANIFEST.JSON": return .file
            case "": return nil
            case _ where name.contains("|") && name.contains("CLIP"): return .listenable  // PLAYLIST|manifesto|CLIP|ALARM
            default: return notPositional.contains(name) ? nil : .other
            }
        }
    }
    private static let notPositional: Set<String> = ["HH:MM", "OUT", "DIR"]

    private static func words(_ parser: ArgumentParser) -> [String] {
        ManPages.topics(parser).map(\.name) + ["help"]
    }

    private static func valueOptions(_ parser: ArgumentParser) -> [OptionSpec] {
        var seen = Set<String>()
        return (parser.globalOptions + parser.commands.flatMap(\.options)).filter { $0.takesValue && seen.insert($0.name).inserted }
    }

    /// For an option name that commands use with different fixed values (`alarm add --voice
    /// on|off`, `clip say --voice VOICE`): each command's values; nil when every use is the same.
    static func perCommandChoices(_ name: String, _ parser: ArgumentParser) -> [(command: String, choices: [String])]? {
        let uses = parser.commands.compactMap { spec in spec.options.first { $0.name == name }.map { (spec.name, $0.choices) } }
        guard Set(uses.map { $0.1 ?? [] }).count > 1 else { return nil }
        return uses.compactMap { use in use.1.map { (use.0, $0) } }
    }

    // MARK: bash

    static func bash(_ parser: ArgumentParser) -> String {
        let valueNames: String = valueOptions(parser).map { "--\($0.name)" + ($0.short.map { "|-\($0)" } ?? "") }.joined(separator: "|")
        let groupList: String = groups(parser).joined(separator: " ")
        // The library asked is the one the command line names: a --data-dir already typed is passed on.
        var lines: [String] = [
            banner, "_voicealarm_run() { voicealarm ${_voicealarm_data:+--data-dir \"$_voicealarm_data\"} \"$@\" 2>/dev/null; }",
            "_voicealarm_ids() { _voicealarm_run \"$1\" list -q | cut -d' ' -f1; }",
        ]
        // Names a person chose (playlists may hold spaces, '$(…)', '*'): matched as text, never
        // expanded, and offered shell-quoted.
        lines += [
            "_voicealarm_names() {", "    local name; COMPREPLY=()",
            "    while IFS= read -r name; do [[ -n $name && $name == \"$cur\"* ]] && COMPREPLY+=(\"$(printf '%q' \"$name\")\"); done <<< \"$1\"",
            "}", "_voicealarm() {",
        ]
        lines.append("    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" command=\"\" argument=0 i word skip=0")
        lines.append("    _voicealarm_data=\"\"")
        lines.append("    for ((i = 1; i < COMP_CWORD; i++)); do")
        lines.append("        word=\"${COMP_WORDS[i]}\"")
        lines.append("        [[ $word == --data-dir ]] && _voicealarm_data=\"${COMP_WORDS[i+1]/#\\~/$HOME}\"")
        lines.append("        if ((skip)); then skip=0; continue; fi")
        lines.append("        case \"$word\" in")
        lines.append("            \(valueNames)) skip=1 ;;")
        lines.append("            -*) ;;")
        lines.append(
            "            *) if [[ -z $command ]]; then command=$word; elif [[ $command != *\" \"* ]] && [[ \" \(groupList) \" == *\" $command \"* ]]; then command=\"$command $word\"; else ((argument++)); fi ;;"
        )
        lines += ["        esac", "    done", "    case \"$prev\" in"]
        for option in valueOptions(parser) {
            let names = "--\(option.name)" + (option.short.map { "|-\($0)" } ?? "")
            if let variants = perCommandChoices(option.name, parser) {
                let inner = variants.map { "\"\($0.command)\") COMPREPLY=($(compgen -W \"\($0.choices.joined(separator: " "))\" -- \"$cur\")) ;;" }
                lines.append("        \(names)) COMPREPLY=(); case \"$command\" in \(inner.joined(separator: " ")) esac; return ;;")
            } else if let choices = option.choices {
                lines.append("        \(names)) COMPREPLY=($(compgen -W \"\(choices.joined(separator: " "))\" -- \"$cur\")); return ;;")
            } else if option.kind == .directory {
                lines.append("        \(names)) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;")
            } else if option.kind == .file {
                lines.append("        \(names)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;")
            } else if option.kind == .clip {
                lines.append("        \(names)) COMPREPLY=($(compgen -W \"$(_voicealarm_ids clip)\" -- \"$cur\")); return ;;")
            } else if option.kind == .playlist {
                lines.append("        \(names)) _voicealarm_names \"$(_voicealarm_run playlist list -q)\"; return ;;")
            } else {
                lines.append("        \(names)) return ;;")
            }
        }
        lines += [
            "    esac", "    local globals=\"" + optionWords(parser.globalOptions) + "\"", "    case \"$command\" in",
            "        \"\") if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W \"$globals\" -- \"$cur\")); else COMPREPLY=($(compgen -W \""
                + words(parser).joined(separator: " ") + "\" -- \"$cur\")); fi ;;",
        ]
        for group in groups(parser) {
            let members = parser.commands(inGroup: group).map { String($0.name.dropFirst(group.count + 1)) }
            lines.append("        \(group)) COMPREPLY=($(compgen -W \"\(members.joined(separator: " ")) $globals\" -- \"$cur\")) ;;")
        }
        for spec in parser.commands where spec.name != "help" {
            let kinds = argumentKinds(spec)
            lines.append("        \"\(spec.name)\")")
            lines.append("            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W \"\(optionWords(spec.options)) $globals\" -- \"$cur\")); return; fi")
            lines.append("            case \"$argument\" in")
            for (position, kind) in kinds.enumerated() {
                let last = position == kinds.count - 1 && spec.maximumArguments == nil
                lines.append("                \(last ? "*" : "\(position)")) \(bashWords(kind)) ;;")
            }
            lines.append("            esac ;;")
        }
        lines += ["    esac", "}", "complete -F _voicealarm voicealarm"]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func bashWords(_ kind: ArgumentKind) -> String {
        switch kind {
        case .clip: "COMPREPLY=($(compgen -W \"$(_voicealarm_ids clip)\" -- \"$cur\"))"
        case .alarm: "COMPREPLY=($(compgen -W \"$(_voicealarm_ids alarm)\" -- \"$cur\"))"
        case .target: "_voicealarm_names \"manifesto\"$'\\n'\"$(_voicealarm_run playlist list -q)\""
        case .listenable:
            "_voicealarm_names \"manifesto\"$'\\n'\"$(_voicealarm_run playlist list -q)\"$'\\n'\"$(_voicealarm_ids clip)\"$'\\n'\"$(_voicealarm_ids alarm)\""
        case .file: "COMPREPLY=($(compgen -f -- \"$cur\"))"
        case .other: ":"
        }
    }

    // MARK: zsh

    static func zsh(_ parser: ArgumentParser) -> String {
        let groupList: String = groups(parser).joined(separator: " ")
        var lines: [String] = ["#compdef voicealarm", banner, "_voicealarm() {", "    local -a commands options values"]
        lines += [
            "    local command=\"\" word i", "    for ((i = 2; i < CURRENT; i++)); do", "        word=${words[i]}", "        [[ $word == -* ]] && continue",
        ]
        lines.append("        if [[ -z $command ]]; then command=$word; elif [[ \" \(groupList) \" == *\" $command \"* ]]; then command=\"$command $word\"; fi")
        lines += ["    done", "    case ${words[CURRENT-1]} in"]
        for option in valueOptions(parser) {
            if let variants = perCommandChoices(option.name, parser) {
                let inner = variants.map { "\"\($0.command)\") values=(\($0.choices.joined(separator: " "))); compadd -a values ;;" }
                lines.append("        --\(option.name)) case $command in \(inner.joined(separator: " ")) esac; return ;;")
            } else if let choices = option.choices {
                lines.append("        --\(option.name)) values=(\(choices.joined(separator: " "))); compadd -a values; return ;;")
            }
        }
        lines += [
            "    esac", "    case $command in",
            "        \"\") if [[ $PREFIX == -* ]]; then options=(\(optionWords(parser.globalOptions))); compadd -a options; else commands=(\(words(parser).joined(separator: " "))); compadd -a commands; fi ;;",
        ]
        for group in groups(parser) {
            let members = parser.commands(inGroup: group).map { String($0.name.dropFirst(group.count + 1)) }
            lines.append("        \(group)) commands=(\(members.joined(separator: " "))); compadd -a commands ;;")
        }
        for spec in parser.commands where spec.name != "help" {
            lines.append(
                "        \"\(spec.name)\") if [[ $PREFIX == -* ]]; then options=(\(optionWords(spec.options + parser.globalOptions))); compadd -a options; else _files; fi ;;"
            )
        }
        lines += ["    esac", "}", "_voicealarm \"$@\""]
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: fish

    static func fish(_ parser: ArgumentParser) -> String {
        // The library asked is the one the command line names: a --data-dir already typed is passed on.
        var lines = [
            banner, "complete -c voicealarm -f",
            "function __voicealarm_run",
            "    set -l tokens (commandline -opc); set -l data",
            "    for i in (seq (count $tokens)); if test \"$tokens[$i]\" = --data-dir; and test $i -lt (count $tokens); set data --data-dir $tokens[(math $i + 1)]; end; end",
            "    voicealarm $data $argv 2>/dev/null",
            "end",
        ]
        let top = ManPages.topics(parser)
        for topic in top {
            let summary = topic.commands.count == 1 ? topic.commands[0].summary : "the \(topic.name) commands"
            lines.append("complete -c voicealarm -n __fish_use_subcommand -a \(topic.name) -d '\(fishQuoted(summary))'")
        }
        for option in parser.globalOptions { lines.append("complete -c voicealarm " + fishOption(option)) }
        for group in groups(parser) {
            for spec in parser.commands(inGroup: group) {
                let sub = spec.name.dropFirst(group.count + 1)
                lines.append(
                    "complete -c voicealarm -n '__fish_seen_subcommand_from \(group); and not __fish_seen_subcommand_from \(parser.commands(inGroup: group).map { String($0.name.dropFirst(group.count + 1)) }.joined(separator: " "))' -a \(sub) -d '\(fishQuoted(spec.summary))'"
                )
            }
        }
        for spec in parser.commands where spec.name != "help" {
            let condition = spec.name.split(separator: " ").map { "__fish_seen_subcommand_from \($0)" }.joined(separator: "; and ")
            for option in spec.options { lines.append("complete -c voicealarm -n '\(condition)' " + fishOption(option)) }
            switch argumentKinds(spec).first {
            case .clip?: lines.append("complete -c voicealarm -n '\(condition)' -a '(__voicealarm_run clip list -q | string split -f1 \" \")'")
            case .alarm?: lines.append("complete -c voicealarm -n '\(condition)' -a '(__voicealarm_run alarm list -q | string split -f1 \" \")'")
            case .target?: lines.append("complete -c voicealarm -n '\(condition)' -a 'manifesto (__voicealarm_run playlist list -q)'")
            case .listenable?:
                lines.append(
                    "complete -c voicealarm -n '\(condition)' -a 'manifesto (__voicealarm_run playlist list -q) (__voicealarm_run clip list -q | string split -f1 \" \") (__voicealarm_run alarm list -q | string split -f1 \" \")'"
                )
            case .file?: lines.append("complete -c voicealarm -n '\(condition)' -F")
            default: break
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func fishOption(_ option: OptionSpec) -> String {
        var text = "-l \(option.name)"
        if let short = option.short { text += " -s \(short)" }
        if let choices = option.choices { text += " -x -a '\(choices.joined(separator: " "))'" } else if option.takesValue { text += " -r" }
        return text + " -d '\(fishQuoted(option.help))'"
    }

    private static func fishQuoted(_ text: String) -> String { text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") }

    private static func groups(_ parser: ArgumentParser) -> [String] {
        ManPages.topics(parser).filter { $0.commands.contains { $0.name.contains(" ") } }.map(\.name)
    }

    private static func optionWords(_ options: [OptionSpec]) -> String {
        options.flatMap { ["--\($0.name)"] + ($0.short.map { ["-\($0)"] } ?? []) }.joined(separator: " ")
    }
}
