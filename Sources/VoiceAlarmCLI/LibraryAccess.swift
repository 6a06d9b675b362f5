import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmFiles

/// Finds the library a command line points at — `--data-dir`, else `$VOICEALARM_HOME`, else
/// `$XDG_DATA_HOME/voicealarm`, else `~/.local/share/voicealarm` — and opens it with the
/// folders and scheduler the command line names (the service remembers them).
enum LibraryAccess {
    static func dataDirectory(_ parsed: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        if let dir = try parsed[GlobalOptions.dataDir] { return dir }
        let (path, variable) = LibraryLocation.defaultDataDirectory(environment: environment)
        if let variable, PrintableText.hasControlCharacters(environment[variable] ?? "") {
            throw UsageError("\(variable): \(PrintableText.refusal) in a folder's path", command: parsed.command)
        }
        return path
    }

    /// Refuses a malformed `--data-dir`, `--sounds-dir`, `--unit-dir` or `--scheduler` (a usage error).
    static func checkOptions(_ parsed: ParsedArguments) throws {
        for folder in [GlobalOptions.dataDir, GlobalOptions.soundsDir, GlobalOptions.unitDir] { _ = try parsed[folder] }
        _ = try parsed[GlobalOptions.scheduler]
    }

    /// Where the command line points, and what it asks of the library.
    static func location(_ parsed: ParsedArguments) throws -> LibraryLocation {
        LibraryLocation(
            dataDirectory: try dataDirectory(parsed), soundsDirectory: try parsed[GlobalOptions.soundsDir],
            unitDirectory: try parsed[GlobalOptions.unitDir], backend: try parsed[GlobalOptions.scheduler])
    }

    static func open(_ parsed: ParsedArguments, console: Console) throws -> AlarmService {
        try open(try location(parsed), quiet: parsed[GlobalOptions.quiet], console: console)
    }

    static func open(_ location: LibraryLocation, quiet: Bool, console: Console) throws -> AlarmService {
        umask(0o077)  // a voice is personal: every file the library writes is 0600, every folder 0700
        let (service, switched) = try LibraryOpener.open(location, warn: { warning in if !quiet { console.note(warning.line) } })
        if let switched, !quiet {
            console.note(
                "Switched from the \(switched.from.rawValue) scheduler to \(switched.to.rawValue): cancelled \(switched.cancelled) there, scheduled \(switched.report.scheduled.count + switched.report.updated.count) here."
            )
        }
        return service
    }

    /// What a command that succeeded leaves for last: a `--sounds-dir` that names another folder
    /// becomes the library's, its voice files moved there.
    static func finish(_ service: AlarmService, _ parsed: ParsedArguments, context: CommandContext) throws {
        if let moved = try LibraryOpener.switchSounds(of: service, to: try location(parsed), warn: { context.say($0.line) }) {
            context.say("The voice files now live in \(try location(parsed).soundsDirectory ?? ""): moved \(moved), remembered for every command.")
        }
    }

    static func absolute(_ path: String) -> String { FileSystem.absolutePath(path) }
}
