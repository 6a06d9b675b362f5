import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmScheduling
import VoiceAlarmStore

/// Opens the library a command line points at: `--data-dir`, else `$VOICEALARM_HOME`, else
/// `$XDG_DATA_HOME/voicealarm`, else `~/.local/share/voicealarm`. `--sounds-dir`, `--scheduler`
/// and `--unit-dir` are remembered in the data dir once given, so later commands — and a `ring`
/// started by systemd — find the same files.
enum LibraryAccess {
    enum Backend: String, CaseIterable { case embedded, systemd }

    static func dataDirectory(_ parsed: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dir = parsed.value("data-dir") { return absolute(dir) }
        if let home = environment["VOICEALARM_HOME"], !home.isEmpty { return absolute(home) }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return absolute(xdg) + "/voicealarm" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/voicealarm"
    }

    /// The backend asked for on the command line, checked before anything is opened.
    static func requestedBackend(_ parsed: ParsedArguments) throws -> Backend? {
        guard let text = parsed.value("scheduler") else { return nil }
        guard let backend = Backend(rawValue: text) else {
            throw UsageError("--scheduler: '\(text)' is not a scheduler (embedded, systemd)", command: parsed.command)
        }
        return backend
    }

    static func open(_ parsed: ParsedArguments, console: Console) throws -> AlarmService {
        let requested = try requestedBackend(parsed)
        umask(0o077)   // a voice is personal: every file the library writes is 0600, every folder 0700
        let store = try LibraryStore(dataDirectory: dataDirectory(parsed))
        var remembered = try store.settings()
        for (option, key) in [("sounds-dir", "sounds-dir"), ("unit-dir", "unit-dir")] {
            if let dir = parsed.value(option), remembered[key] != absolute(dir) {
                try store.setSetting(key, absolute(dir))
                remembered[key] = absolute(dir)
            }
        }
        let sounds = try SoundsDirectory(path: remembered["sounds-dir"] ?? "\(store.dataDirectory)/Sounds")
        let quiet = parsed.has("quiet")
        let warn: (String) -> Void = { line in if !quiet { console.note(line) } }
        let current = Backend(rawValue: remembered["scheduler"] ?? "") ?? .embedded
        let unitDirectory = remembered["unit-dir"] ?? SystemdTimerScheduler.defaultUnitDirectory

        func scheduler(_ backend: Backend) throws -> any AlarmScheduler {
            switch backend {
            case .embedded: try EmbeddedScheduler(dataDirectory: store.dataDirectory)
            case .systemd: try SystemdTimerScheduler(unitDirectory: unitDirectory, dataDirectory: store.dataDirectory, executable: executablePath())
            }
        }

        guard let requested, requested != current else {
            return AlarmService(store: store, sounds: sounds, scheduler: try scheduler(current), warn: warn)
        }
        // Switching: everything leaves the old backend before anything enters the new one.
        let old = try scheduler(current)
        let held = try old.alarms()
        for alarm in held { try old.cancel(id: alarm.id) }
        try store.setSetting("scheduler", requested.rawValue)
        let service = AlarmService(store: store, sounds: sounds, scheduler: try scheduler(requested), warn: warn)
        let report = try service.reconcile()
        warn("Switched from the \(current.rawValue) scheduler to \(requested.rawValue): cancelled \(held.count) there, scheduled \(report.scheduled.count + report.updated.count) here.")
        return service
    }

    /// This binary's absolute path, for units and the daemon to run it again.
    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? absolute(CommandLine.arguments[0])
    }

    static func absolute(_ path: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        return expanded.hasPrefix("/") ? expanded : FileManager.default.currentDirectoryPath + "/" + expanded
    }
}
