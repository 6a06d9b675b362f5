import VoiceAlarmDocuments

/// `--help --json` (and `help --json`): the same tables the help text is written from, as one
/// JSON document a program can read — what `voicealarm`, a group or a command takes.
///
/// `{"name", "summary", "usage", "discussion", "commands": [{"name", "summary"}], "options":
/// [{"name", "short", "value", "help", "choices"}], "globalOptions": [...], "examples": [...]}`;
/// `name` is null for the whole tool, `commands` empty for one command.
struct HelpJSON: Encodable {
    struct Command: Encodable { var name: String, summary: String }
    struct Option: Encodable {
        var name: String, short: Nullable<String>, value: Nullable<String>, help: String, choices: Nullable<[String]>
        init(_ spec: OptionSpec) {
            name = spec.name
            short = .init(spec.short.map(String.init))
            value = .init(spec.valueName)
            help = spec.help
            choices = .init(spec.choices)
        }
    }

    var name: Nullable<String>
    var summary: String
    var usage: String
    var discussion: String
    var commands: [Command]
    var options: [Option]
    var globalOptions: [Option]
    var examples: [String]

    /// The whole tool.
    init(topLevel parser: ArgumentParser) {
        name = .init(nil)
        summary = "wake up to your own voice"
        usage = "voicealarm <command> [options] [arguments]"
        discussion = ""
        commands = parser.commands.map { Command(name: $0.name, summary: $0.summary) }
        options = []
        globalOptions = parser.globalOptions.map(Option.init)
        examples = []
    }

    /// A group of commands (`alarm`, `clip`).
    init(group: String, parser: ArgumentParser) {
        name = .init(group)
        summary = ""
        usage = "voicealarm \(group) <command> [options] [arguments]"
        discussion = ""
        commands = parser.commands(inGroup: group).map { Command(name: $0.name, summary: $0.summary) }
        options = []
        globalOptions = parser.globalOptions.map(Option.init)
        examples = []
    }

    /// One command.
    init(command spec: CommandSpec, parser: ArgumentParser) {
        name = .init(spec.name)
        summary = spec.summary
        usage = "voicealarm \(spec.name) [options] \(spec.arguments)"
        discussion = spec.discussion
        commands = []
        options = spec.options.map(Option.init)
        globalOptions = parser.globalOptions.map(Option.init)
        examples = spec.examples
    }
}
