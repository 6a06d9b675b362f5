import Foundation
import VoiceAlarm
import VoiceAlarmFiles

/// Finds the library a command line points at — `--data-dir`, else `$VOICEALARM_HOME`, else
/// `$XDG_DATA_HOME/voicealarm`, else `~/.local/share/voicealarm` — and opens it with the
/// folders and scheduler the command line names (the service remembers them).
enum LibraryAccess {
    static func dataDirectory(_ parsed: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dir = parsed.value("data-dir") { return absolute(dir) }
        if let home = environment["VOICEALARM_HOME"], !home.isEmpty { return absolute(home) }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return absolute(xdg) + "/voicealarm" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/voicealarm"
    }

    /// The backend asked for on the command line, checked before anything is opened.
    static func requestedBackend(_ parsed: ParsedArguments) throws -> SchedulerBackend? {
        guard let text = parsed.value("scheduler") else { return nil }
        guard let backend = SchedulerBackend(rawValue: text) else {
            throw UsageError("--scheduler: '\(text)' is not a scheduler (embedded, systemd)", command: parsed.command)
        }
        return backend
    }

    /// Where the command line points, and what it asks of the library.
    static func location(_ parsed: ParsedArguments) throws -> LibraryLocation {
        LibraryLocation(dataDirectory: dataDirectory(parsed), soundsDirectory: parsed.value("sounds-dir").map(absolute),
                        unitDirectory: parsed.value("unit-dir").map(absolute), backend: try requestedBackend(parsed))
    }

    static func open(_ parsed: ParsedArguments, console: Console) throws -> AlarmService {
        try open(try location(parsed), quiet: parsed.has("quiet"), console: console)
    }

    static func open(_ location: LibraryLocation, quiet: Bool, console: Console) throws -> AlarmService {
        umask(0o077)   // a voice is personal: every file the library writes is 0600, every folder 0700
        let warn: (String) -> Void = { line in if !quiet { console.note(line) } }
        let (service, switched) = try LibraryOpener.open(location, warn: warn)
        if let switched {
            warn("Switched from the \(switched.from.rawValue) scheduler to \(switched.to.rawValue): cancelled \(switched.cancelled) there, scheduled \(switched.report.scheduled.count + switched.report.updated.count) here.")
        }
        return service
    }

    /// What a command that succeeded leaves for last: a `--sounds-dir` that names another folder
    /// becomes the library's, its voice files moved there.
    static func finish(_ service: AlarmService, _ parsed: ParsedArguments, context: CommandContext) throws {
        let warn: (String) -> Void = { line in context.say(line) }
        if let moved = try LibraryOpener.switchSounds(of: service, to: try location(parsed), warn: warn) {
            context.say("The voice files now live in \(try location(parsed).soundsDirectory ?? ""): moved \(moved), remembered for every command.")
        }
    }

    static func absolute(_ path: String) -> String { FileSystem.absolutePath(path) }
}
