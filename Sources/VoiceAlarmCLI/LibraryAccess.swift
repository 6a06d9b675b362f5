import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmScheduling
import VoiceAlarmStore

/// Opens the library a command line points at: `--data-dir`, else `$VOICEALARM_HOME`, else
/// `$XDG_DATA_HOME/voicealarm`, else `~/.local/share/voicealarm`. `--sounds-dir` is remembered
/// in the data dir once given, so later commands find the same files.
enum LibraryAccess {
    static func dataDirectory(_ parsed: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dir = parsed.value("data-dir") { return absolute(dir) }
        if let home = environment["VOICEALARM_HOME"], !home.isEmpty { return absolute(home) }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return absolute(xdg) + "/voicealarm" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/voicealarm"
    }

    static func open(_ parsed: ParsedArguments, console: Console) throws -> AlarmService {
        umask(0o077)   // a voice is personal: every file the library writes is 0600, every folder 0700
        let store = try LibraryStore(dataDirectory: dataDirectory(parsed))
        var remembered = try store.settings()
        if let dir = parsed.value("sounds-dir") {
            let path = absolute(dir)
            if remembered["sounds-dir"] != path {
                try store.setSetting("sounds-dir", path)
                remembered["sounds-dir"] = path
            }
        }
        let sounds = try SoundsDirectory(path: remembered["sounds-dir"] ?? "\(store.dataDirectory)/Sounds")
        let scheduler = try EmbeddedScheduler(dataDirectory: store.dataDirectory)
        let quiet = parsed.has("quiet")
        return AlarmService(store: store, sounds: sounds, scheduler: scheduler,
                            warn: { line in if !quiet { console.note(line) } })
    }

    static func absolute(_ path: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        return expanded.hasPrefix("/") ? expanded : FileManager.default.currentDirectoryPath + "/" + expanded
    }
}
