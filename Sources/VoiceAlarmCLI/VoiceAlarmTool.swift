import Foundation
import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmFiles
import VoiceAlarmWeb

/// The `voicealarm` command line: parses, dispatches, prints, and maps failures to exit codes
/// (0 done, 1 failed, 64 malformed command line).
///
/// ```swift
/// InterruptHandler.exit(VoiceAlarmTool.run(Array(CommandLine.arguments.dropFirst()), console: .standard))
/// ```
package enum VoiceAlarmTool {
    static let helpSpec = CommandSpec(
        name: "help", summary: "Show help for voicealarm or one of its commands", arguments: "[COMMAND]",
        minimumArguments: 0, maximumArguments: 2, options: [])

    /// Every command, in the order help lists them.
    /// The library's subjects first (recordings, what alarms play, the alarms, their ringing and
    /// scheduling, the phone's page), then the tools that work on files alone.
    static let commands: [any Command.Type] =
        ClipCommands.commands + [DevicesCommand.self] + PlaylistCommands.commands
        + AlarmCommands.commands + HolidayCommands.commands + RingCommands.commands + [ShowCommand.self] + SchedulerCommands.commands + ServiceCommands.commands
        + ServeCommands.commands + HomeCommands.commands + BatchCommands.commands + [
            RenderCommand.self, CheckCommand.self, SettingsCommand.self, RepairCommand.self, ExportCommand.self, ImportCommand.self,
        ]

    /// The parser for the whole command table.
    package static let parser = ArgumentParser(globalOptions: GlobalOptions.all.map(\.spec), commands: commands.map { $0.spec } + [helpSpec])

    /// Runs one command line (without the program name) and returns the exit status.
    package static func run(_ arguments: [String], console: Console) -> Int32 {
        let help = HelpFormatter(parser: parser, firstSteps: FirstAlarm.commands.map { $0.spec.name })
        var json = false
        do {
            let parsed = try parser.parse(arguments)
            json = parsed[GlobalOptions.json]
            if parsed[GlobalOptions.version], !parsed[GlobalOptions.help] {
                console.result(json ? JSONOutput.encode(["version": Version.current]) : "voicealarm \(Version.current)")
                return ExitCode.success.rawValue
            }
            guard let command = parsed.command else {
                let text = parsed.group.map(help.group) ?? help.topLevel()
                if parsed[GlobalOptions.help] {
                    if json {
                        console.result(JSONOutput.encode(parsed.group.map { HelpJSON(group: $0, parser: parser) } ?? HelpJSON(topLevel: parser)))
                    } else {
                        console.writeOut(text)
                    }
                    return ExitCode.success.rawValue
                }
                console.writeErr(text)
                return fail(.usage, "missing command", input: parsed.group, json: json, console)
            }
            if parsed[GlobalOptions.help] {
                let spec = parser.command(named: command)!
                if json { console.result(JSONOutput.encode(HelpJSON(command: spec, parser: parser))) } else { console.writeOut(help.command(spec)) }
                return ExitCode.success.rawValue
            }
            if command == helpSpec.name { return try showHelp(parsed.arguments, help, json: json, console) }
            try LibraryAccess.checkOptions(parsed)  // a malformed folder or backend is refused before anything runs
            let opened = OpenedLibrary()
            let context = CommandContext(
                console: console, json: json, quiet: parsed[GlobalOptions.quiet],
                library: { try opened.service { try LibraryAccess.open(parsed, console: console) } },
                location: { try LibraryAccess.location(parsed) })
            guard let handler = commands.first(where: { $0.spec.name == command }) else {
                preconditionFailure("command '\(command)' is in the parser but not in the table")
            }
            let code = try handler.run(parsed, context)
            // A folder given on the command line is taken on only by a command that succeeded.
            if code == .success, let service = opened.opened { try LibraryAccess.finish(service, parsed, context: context) }
            return code.rawValue
        } catch let error as UsageError {
            console.note("error: \(error.message)")
            for line in error.hint.split(separator: "\n") { console.note(String(line)) }
            return fail(.usage, error.message, input: error.input, json: json || error.jsonRequested, console)
        } catch {
            // In the terminal's words (with the command that helps); Foundation's errors as the
            // file and the reason, never dumped.
            let message = ProblemText.sentence(error, on: .terminal)
            console.note("error: \(message)")
            return fail(.failure, message, input: Classified.input(of: error), json: json, console)
        }
    }

    /// Under `--json` (even on a line that did not parse) a failure is also a JSON document on
    /// stdout, so a program reading stdout always gets one.
    private static func fail(_ code: ExitCode, _ message: String, input: String?, json: Bool, _ console: Console) -> Int32 {
        if json {
            console.result(JSONOutput.encode(ErrorReport(message: message, input: input, code: code.rawValue)))
        }
        return code.rawValue
    }

    private static func showHelp(_ topic: [String], _ help: HelpFormatter, json: Bool, _ console: Console) throws -> Int32 {
        let name = topic.joined(separator: " ")
        if name.isEmpty {
            if json { console.result(JSONOutput.encode(HelpJSON(topLevel: parser))) } else { console.writeOut(help.topLevel()) }
        } else if let spec = parser.command(named: name) {
            if json { console.result(JSONOutput.encode(HelpJSON(command: spec, parser: parser))) } else { console.writeOut(help.command(spec)) }
        } else if !parser.commands(inGroup: name).isEmpty {
            if json { console.result(JSONOutput.encode(HelpJSON(group: name, parser: parser))) } else { console.writeOut(help.group(name)) }
        } else {
            throw UsageError("unknown command '\(name)'", command: nil)
        }
        return ExitCode.success.rawValue
    }
}
