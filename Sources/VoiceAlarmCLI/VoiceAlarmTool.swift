import Foundation
import VoiceAlarmAudio

/// The `voicealarm` command line: parses, dispatches, prints, and maps failures to exit codes
/// (0 done, 1 failed, 64 malformed command line).
///
/// ```swift
/// exit(VoiceAlarmTool.run(Array(CommandLine.arguments.dropFirst()), console: .standard))
/// ```
public enum VoiceAlarmTool {
    static let globalOptions = [
        OptionSpec("json", help: "Print the result as JSON on stdout"),
        OptionSpec("quiet", short: "q", help: "Print nothing on stderr but errors"),
        OptionSpec("help", short: "h", help: "Show help"),
    ]

    static let helpSpec = CommandSpec(
        name: "help", summary: "Show help for voicealarm or one of its commands", arguments: "[COMMAND]",
        minimumArguments: 0, maximumArguments: 1, options: [])

    static let commands: [CommandSpec] = [RenderCommand.spec, CheckCommand.spec, helpSpec]

    /// The parser for the whole command table.
    public static let parser = ArgumentParser(globalOptions: globalOptions, commands: commands)

    /// Runs one command line (without the program name) and returns the exit status.
    public static func run(_ arguments: [String], console: Console) -> Int32 {
        let help = HelpFormatter(parser: parser)
        do {
            let parsed = try parser.parse(arguments)
            guard let command = parsed.command else {
                if parsed.has("help") {
                    console.writeOut(help.topLevel())
                    return ExitCode.success.rawValue
                }
                console.writeErr(help.topLevel())
                return ExitCode.usage.rawValue
            }
            if parsed.has("help") {
                console.writeOut(help.command(parser.command(named: command)!))
                return ExitCode.success.rawValue
            }
            let context = CommandContext(console: console, json: parsed.has("json"), quiet: parsed.has("quiet"))
            switch command {
            case RenderCommand.spec.name: return try RenderCommand.run(parsed, context).rawValue
            case CheckCommand.spec.name: return try CheckCommand.run(parsed, context).rawValue
            case helpSpec.name:
                guard let topic = parsed.arguments.first else {
                    console.writeOut(help.topLevel())
                    return ExitCode.success.rawValue
                }
                guard let spec = parser.command(named: topic) else {
                    throw UsageError("unknown command '\(topic)'", command: nil)
                }
                console.writeOut(help.command(spec))
                return ExitCode.success.rawValue
            default:
                preconditionFailure("command '\(command)' is in the table but has no handler")
            }
        } catch let error as UsageError {
            console.note("error: \(error.message)")
            console.note(error.hint)
            return ExitCode.usage.rawValue
        } catch {
            console.note("error: \(error)")
            return ExitCode.failure.rawValue
        }
    }
}
