import Foundation
import VoiceAlarmFiles

/// A user unit that came with VoiceAlarm's Debian package instead of being written by it:
/// `voicealarm-daemon.service` (`voicealarm daemon`) and `voicealarm-web.service`
/// (`voicealarm serve --no-pairing`) in `/usr/lib/systemd/user`. They name no data dir, so the
/// daemon they start finds the account's default library from the user manager's environment,
/// and any account enables them for itself (`systemctl --user enable --now voicealarm-daemon.service`).
///
/// Found as the user manager finds a unit by name: the first file of that name along its search
/// path (`systemd-analyze --user unit-paths`, less the runtime and generated folders).
///
/// ```swift
/// if let shipped = ShippedUnit.find(.daemon), shipped.runs(.daemon, executable: "/usr/bin/voicealarm") { … }
/// ```
package struct ShippedUnit: Sendable, Equatable {
    /// Where the package installs its units, and the binary they run.
    package static let packageDirectory = "/usr/lib/systemd/user"
    package static let packageExecutable = "/usr/bin/voicealarm"

    /// The unit file's path.
    package let path: String
    /// The words of its `ExecStart=`, unquoted; nil when it has none that can be read.
    package let command: [String]?

    /// The unit's name for a role: `voicealarm-daemon.service`, `voicealarm-web.service`.
    package static func name(_ role: UserServiceUnit.Role) -> String { "voicealarm-\(role.word).service" }

    /// The folders a user manager loads units from, in its order: the person's own, the
    /// administrator's, then the vendors' (`$XDG_DATA_DIRS`, `/usr/local/lib`, `/usr/lib`) — or,
    /// as systemd reads it, `$SYSTEMD_UNIT_PATH` in their place (followed by them when it ends
    /// with `:`).
    package static func searchPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let given = value("SYSTEMD_UNIT_PATH") {
            let folders = given.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
            var defaults = environment
            defaults["SYSTEMD_UNIT_PATH"] = nil
            return given.hasSuffix(":") ? folders + searchPath(environment: defaults) : folders
        }
        let home = value("HOME") ?? NSHomeDirectory()
        func list(_ name: String, _ fallback: String) -> [String] {
            (value(name) ?? fallback).split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        }
        return [(value("XDG_CONFIG_HOME") ?? home + "/.config") + "/systemd/user"]
            + list("XDG_CONFIG_DIRS", "/etc/xdg").map { $0 + "/systemd/user" }
            + ["/etc/systemd/user", "/run/systemd/user", (value("XDG_DATA_HOME") ?? home + "/.local/share") + "/systemd/user"]
            + list("XDG_DATA_DIRS", "/usr/local/share:/usr/share").map { $0 + "/systemd/user" }
            + ["/usr/local/lib/systemd/user", packageDirectory]
    }

    /// The unit of `role`'s name the user manager would load, when there is one.
    package static func find(_ role: UserServiceUnit.Role, environment: [String: String] = ProcessInfo.processInfo.environment) -> ShippedUnit? {
        for folder in searchPath(environment: environment) {
            let path = "\(folder)/\(name(role))"
            guard FileSystem.kind(of: path, followingLinks: true) == .regular else { continue }
            let text = FileSystem.text(path) ?? ""
            return ShippedUnit(path: path, command: execStart(text))
        }
        return nil
    }

    /// What follows the binary in the unit `role` ships as: `daemon`, or `serve` and its arguments.
    package static func arguments(_ role: UserServiceUnit.Role) -> [String] {
        switch role {
        case .daemon: ["daemon"]
        case .web(let arguments): ["serve"] + arguments
        case .mqtt: ["mqtt"]
        }
    }

    /// Whether it serves the default data dir for `role`'s kind of work, whichever binary and
    /// options it runs: `daemon`, or `serve …`, and no `--data-dir`.
    package func servesDefaultDataDirectory(_ role: UserServiceUnit.Role) -> Bool {
        guard let command, command.count >= 2, !command.contains("--data-dir") else { return false }
        return command[1] == Self.arguments(role)[0]
    }

    /// Whether it runs exactly what VoiceAlarm would: `executable` (links resolved) with the
    /// role's arguments, on the default data dir.
    package func runs(_ role: UserServiceUnit.Role, executable: String) -> Bool {
        guard let command, let first = command.first, servesDefaultDataDirectory(role) else { return false }
        return Array(command.dropFirst()) == Self.arguments(role) && PrivateFolder.same(first, executable)
    }

    /// The text the package installs for `role`, running `executable`.
    package static func text(_ role: UserServiceUnit.Role, executable: String = packageExecutable) -> String {
        let command = ([executable] + arguments(role)).joined(separator: " ")
        let enable = "systemctl --user enable --now \(name(role))"
        switch role {
        case .daemon:
            return """
                # VoiceAlarm's daemon for the account's own library: the default data dir ($VOICEALARM_HOME,
                # else $XDG_DATA_HOME/voicealarm, else ~/.local/share/voicealarm, as the user manager's
                # environment sets them). Each account enables it for itself:
                #   \(enable)      (or: voicealarm service install)
                # Another data dir gets a unit of its own: voicealarm --data-dir DIR service install
                [Unit]
                Description=VoiceAlarm daemon: rings the alarms of the default library
                Documentation=man:voicealarm-daemon(1) man:voicealarm-service(1)
                After=sound.target

                \(UserServiceUnit.serviceSection(.daemon, command: command))
                """
        case .web:
            return """
                # VoiceAlarm's web page for the account's own library (the default data dir, as for
                # voicealarm-daemon.service), on serve's default address. Each account enables it for itself:
                #   \(enable)      (or: voicealarm service install --web)
                # It prints no pairing link (its journal is not private): 'voicealarm serve pair' does.
                # Nothing here depends on the daemon's unit, nor it on this one: the alarms ring with the web page down.
                [Unit]
                Description=VoiceAlarm web page: the default library's alarms from a phone
                Documentation=man:voicealarm-serve(1) man:voicealarm-service(1)

                \(UserServiceUnit.serviceSection(role, command: command))
                """
        case .mqtt:
            return """
                # VoiceAlarm for Home Assistant, for the account's own library (the default data dir, as for
                # voicealarm-daemon.service), with the broker's settings 'voicealarm mqtt --broker …' remembered
                # there. Each account enables it for itself, once those are given:
                #   \(enable)      (or: voicealarm service install --mqtt)
                # Nothing here depends on the daemon's unit, nor it on this one: the alarms ring with the bridge down.
                [Unit]
                Description=VoiceAlarm for Home Assistant: the default library's alarms over MQTT
                Documentation=man:voicealarm-mqtt(1) man:voicealarm-service(1)
                After=network-online.target

                \(UserServiceUnit.serviceSection(role, command: command))
                """
        }
    }

    /// The words of the first `ExecStart=` (prefixes such as `-` or `@` dropped, double quotes
    /// and backslash escapes read as systemd reads them); nil when there is none.
    static func execStart(_ text: String) -> [String]? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ExecStart=") }) else { return nil }
        var value = Substring(line.dropFirst("ExecStart=".count))
        while let first = value.first, "-@:+!".contains(first) { value = value.dropFirst() }
        var words: [String] = [], word = "", inWord = false, quoted = false, escaped = false
        for character in value {
            if escaped { word.append(character); escaped = false; continue }
            switch character {
            case "\\": escaped = true; inWord = true
            case "\"": quoted.toggle(); inWord = true
            case " ", "\t":
                if quoted { word.append(character) } else if inWord { words.append(word); word = ""; inWord = false }
            default: word.append(character); inWord = true
            }
        }
        if inWord { words.append(word) }
        return words.isEmpty ? nil : words.map { $0.replacingOccurrences(of: "%%", with: "%").replacingOccurrences(of: "$$", with: "$") }
    }
}
