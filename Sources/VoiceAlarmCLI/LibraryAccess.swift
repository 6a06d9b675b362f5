import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmFiles

/// Finds the library a command line points at — `--data-dir`, else `$VOICEALARM_HOME`, else
/// `$XDG_DATA_HOME/voicealarm`, else `~/.local/share/voicealarm` — and opens it with the
/// folders and scheduler the command line names (the service remembers them).
enum LibraryAccess {
    static func dataDirectory(_ parsed: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        if let dir = try folder(parsed, "data-dir") { return dir }
        for name in ["VOICEALARM_HOME", "XDG_DATA_HOME"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            if PrintableText.hasControlCharacters(value) {
                throw UsageError("\(name): \(PrintableText.refusal) in a folder's path", command: parsed.command)
            }
            return absolute(value) + (name == "XDG_DATA_HOME" ? "/voicealarm" : "")
        }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/voicealarm"
    }

    /// Refuses a malformed `--data-dir`, `--sounds-dir`, `--unit-dir` or `--scheduler` (a usage error).
    static func checkOptions(_ parsed: ParsedArguments) throws {
        for name in ["data-dir", "sounds-dir", "unit-dir"] { _ = try folder(parsed, name) }
        _ = try requestedBackend(parsed)
    }

    /// A folder given as `--NAME DIR`, made absolute; nil when not given. Such a path is written
    /// into the library and into systemd units, so it may not be empty or hold control characters.
    static func folder(_ parsed: ParsedArguments, _ name: String) throws -> String? {
        guard let text = parsed.value(name) else { return nil }
        guard !text.isEmpty else { throw UsageError("--\(name): the folder's path is empty", command: parsed.command) }
        guard !PrintableText.hasControlCharacters(text) else {
            throw UsageError("--\(name): \(PrintableText.refusal) in a folder's path", command: parsed.command)
        }
        return absolute(text)
    }

    /// The backend asked for on the command line, checked before anything is opened.
    static func requestedBackend(_ parsed: ParsedArguments) throws -> SchedulerBackend? {
        guard let text = parsed.value("scheduler") else { return nil }
        guard let backend = SchedulerBackend(rawValue: text) else {
            throw UsageError("--scheduler: '\(text)' is not a scheduler (embedded, systemd)", command: parsed.command, input: "--scheduler")
        }
        return backend
    }

    /// Where the command line points, and what it asks of the library.
    static func location(_ parsed: ParsedArguments) throws -> LibraryLocation {
        LibraryLocation(dataDirectory: try dataDirectory(parsed), soundsDirectory: try folder(parsed, "sounds-dir"),
                        unitDirectory: try folder(parsed, "unit-dir"), backend: try requestedBackend(parsed))
    }

    static func open(_ parsed: ParsedArguments, console: Console) throws -> AlarmService {
        try open(try location(parsed), quiet: parsed.has("quiet"), console: console)
    }

    static func open(_ location: LibraryLocation, quiet: Bool, console: Console) throws -> AlarmService {
        umask(0o077)   // a voice is personal: every file the library writes is 0600, every folder 0700
        let (service, switched) = try LibraryOpener.open(location, warn: { warning in if !quiet { console.note(warning.line) } })
        if let switched, !quiet {
            console.note("Switched from the \(switched.from.rawValue) scheduler to \(switched.to.rawValue): cancelled \(switched.cancelled) there, scheduled \(switched.report.scheduled.count + switched.report.updated.count) here.")
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
