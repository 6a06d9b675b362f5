import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmHTTP
import VoiceAlarmWeb

/// `voicealarm service install | remove | status`: the daemon (and, with `--web`, the web page)
/// as systemd user services, in the order help lists them.
enum ServiceCommands: CommandGroup {
    static let commands: [any Command.Type] = [ServiceInstallCommand.self, ServiceRemoveCommand.self, ServiceStatusCommand.self]

    /// `voicealarm [--data-dir DIR] serve pair [--listen ADDR:PORT]`, for the page the unit serves.
    static func pairCommand(_ parsed: ParsedArguments, _ options: WebService.Options) -> String {
        var words = ["voicealarm"]
        if let dataDir = parsed.text(of: GlobalOptions.dataDir) { words += ["--data-dir", shellWord(LibraryAccess.absolute(dataDir))] }
        words += ["serve", "pair"]
        if let listen = options.listen { words += ["--listen", listen] }
        return words.joined(separator: " ")
    }

    /// `word` as a shell reads it back: as is when plain, else in single quotes.
    private static func shellWord(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "/._-+,:@%=".unicodeScalars.contains($0) }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `{"unit", "shipped", "installed", "managed", "enabled", "running", "lingering", "web"}` (and
    /// `"cannotWake"` after an install on a machine where the daemon cannot wake it from suspend);
    /// `shipped` is true for the unit the package installed (enabled, not written).
    struct StatusJSON: Encodable {
        /// The web page's service: `{"unit", "shipped", "installed", "enabled", "running"}`.
        struct WebJSON: Encodable { var unit: String, shipped: Bool, installed: Bool, enabled: Bool, running: Bool }
        var unit: String, shipped: Bool, installed: Bool, managed: Bool, enabled: Bool, running: Bool, lingering: Bool, cannotWake: Nullable<String>
        /// Null when the web page's service is not installed.
        var web: Nullable<WebJSON>
        /// The units in effect (`current`) of `daemon` and `web`.
        init(_ daemon: DaemonService, web: WebService, cannotWake: WakeProblem?) {
            self.init(daemon.current, web: web.current, cannotWake: cannotWake)
        }

        private init(_ daemon: DaemonService.Unit, web: DaemonService.Unit, cannotWake: WakeProblem?) {
            let state = daemon.state(), webState = web.state()
            unit = daemon.path
            shipped = daemon.isShipped
            installed = state.installed
            managed = state.managed
            enabled = state.enabled
            running = state.running
            lingering = state.lingering
            self.cannotWake = .init(cannotWake?.sentence(on: .terminal))
            self.web = .init(
                webState.installed
                    ? WebJSON(unit: web.path, shipped: web.isShipped, installed: true, enabled: webState.enabled, running: webState.running) : nil)
        }
    }

}
