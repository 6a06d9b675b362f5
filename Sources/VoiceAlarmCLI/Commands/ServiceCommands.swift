import Foundation
import VoiceAlarm
import VoiceAlarmDocuments
import VoiceAlarmHTTP
import VoiceAlarmWeb

/// `voicealarm service install | remove | status`: the daemon (and, with `--web`, the web page)
/// as systemd user services.
enum ServiceCommands {
    static let installSpec = CommandSpec(
        name: "service install", summary: "Run the daemon as a systemd user service, started now and at every login",
        arguments: "", minimumArguments: 0, maximumArguments: 0, options: [web, listen, cert, key, https],
        discussion: """
          Writes voicealarm-daemon-<id>.service into the unit folder (Restart=on-failure, the installed
          binary, this data dir, the remembered device) and, when a systemd user manager runs, enables
          and starts it; otherwise it prints the commands to run. Installing again re-writes it.
          Without lingering (loginctl enable-linger) the daemon runs only while you are logged in.
          Prints the unit's path.
          With --web, also writes voicealarm-web-<id>.service, running 'voicealarm serve' with
          --listen, --cert, --key and --https as given (Restart=on-failure), and starts it the same
          way; then prints both paths. Neither service needs the other: the alarms ring with the
          web page down.
        """,
        examples: ["voicealarm service install", "voicealarm --data-dir ~/alarms service install",
                   "voicealarm service install --web --listen 0.0.0.0:8470"])
    static let removeSpec = CommandSpec(
        name: "service remove", summary: "Stop and remove the daemon's service (and the web page's, when installed)", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [], examples: ["voicealarm service remove"])
    static let statusSpec = CommandSpec(
        name: "service status", summary: "Whether the daemon's service is installed, enabled and running", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [],
        discussion: """
          --json prints {"unit", "installed", "managed", "enabled", "running", "lingering", "web"}, "web"
          being {"unit", "installed", "enabled", "running"} for the web page's service, or null when it
          is not installed. Exits 1 when the daemon's service is not installed or not running; the web
          page down is only a warning.
        """,
        examples: ["voicealarm service status --json"])

    static let specs = [installSpec, removeSpec, statusSpec]

    static let web = Flag("web", help: "Also serve the web page ('voicealarm serve') as a service beside the daemon's")
    /// Read as `serve --listen` reads it; the unit carries the address as serve prints it.
    static let listen: Option<String?> = .reading(
        "listen", value: "ADDR:PORT", help: "With --web: where the page listens, as serve's --listen (default 127.0.0.1:8470)") { text in
        switch ListenAddress.parse(text) {
        case .success(let address): return address.description
        case .failure(let failure): throw OptionRefusal(failure.description)
        }
    }
    static let cert: Option<String?> = .text("cert", value: "FILE", kind: .file, help: "With --web: your own certificate (PEM) for HTTPS, with --key")
    static let key: Option<String?> = .text("key", value: "FILE", kind: .file, help: "With --web: the certificate's private key (PEM, unencrypted)")
    static let https = Flag("https", help: "With --web: HTTPS on loopback too (always on beyond it)")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        // The web page's options are checked before anything is opened or written.
        let webOptions = parsed.command == installSpec.name ? try Self.webOptions(parsed, context) : nil
        let location = try context.location()
        let daemon = try DaemonService(service: try context.library(), location: location)
        let unit = daemon.unit
        switch parsed.command {
        case installSpec.name:
            let webService = try WebService(beside: daemon, options: webOptions ?? .init())
            let existed = try unit.install()
            let webExisted = try webOptions.map { _ in try webService.unit.install() }
            let state = unit.state()
            context.present(StatusJSON(daemon, web: webService, cannotWake: daemon.cannotWake)) {
                context.console.result(unit.path)
                if webOptions != nil { context.console.result(webService.unit.path) }
            }
            if existed { context.console.note("warning: \(unit.name) was already installed; re-wrote it") }
            context.say(state.managed ? "Installed \(unit.name), enabled and started: the alarms of \(unit.dataDirectory) ring without a terminal open."
                                      : "Wrote \(unit.path). No systemd user manager manages it here; to start it: \(daemon.manualSteps)")
            if let webOptions, let webExisted {
                if webExisted { context.console.note("warning: \(webService.unit.name) was already installed; re-wrote it") }
                context.say(state.managed ? "Installed \(webService.unit.name), enabled and started: the web page of \(unit.dataDirectory) on \(webOptions.listen ?? ListenAddress.loopbackDefault.description); it restarts when it fails, and the alarms ring without it."
                                          : "Wrote \(webService.unit.path). No systemd user manager manages it here; to start it: \(webService.manualSteps)")
                context.say("To pair a phone, run \(pairCommand(parsed, webOptions)) and open the link it prints (the service prints none: its journal is not private).")
            }
            if !state.lingering { context.say("note: lingering is off: the daemon runs only while you are logged in (loginctl enable-linger \(ProcessInfo.processInfo.environment["USER"] ?? "$USER"))") }
            if let warning = location.buildFolderProblem { context.say("warning: \(warning.sentence(libraryOpens: true))") }
            if let reason = daemon.cannotWake {
                context.say("note: alarms cannot wake this machine from suspend: \(reason)")
            }
        case removeSpec.name:
            let webService = try WebService(beside: daemon)
            let removedWeb = try webService.removeIfInstalled()
            // With the web page's service gone, a daemon's service already gone is no error.
            let removeDaemon = unit.isInstalled || !removedWeb
            if removeDaemon { try unit.remove() }
            context.present(StatusJSON(daemon, web: webService, cannotWake: nil)) { context.console.result(unit.path) }
            if removedWeb { context.say("Removed \(webService.unit.name); the web page is no longer served.") }
            if removeDaemon { context.say("Removed \(unit.name); nothing rings the embedded alarms until a daemon runs.") }
        case statusSpec.name:
            let state = unit.state()
            let webService = try WebService(beside: daemon), webUnit = webService.unit
            let webState = webUnit.state()
            context.present(StatusJSON(daemon, web: webService, cannotWake: nil)) {
                context.console.result("unit: \(unit.path)")
                context.console.result("installed: \(state.installed ? "yes" : "no")")
                context.console.result(state.managed ? "enabled: \(state.enabled ? "yes" : "no")\nrunning: \(state.running ? "yes" : "no")"
                                                     : "managed: no (no systemd user manager reads \(unit.unitDirectory))")
                context.console.result("lingering: \(state.lingering ? "on" : "off")")
                if !webState.installed {
                    context.console.result("web unit: not installed")
                } else {
                    context.console.result("web unit: \(webUnit.path)")
                    if webState.managed { context.console.result("web enabled: \(webState.enabled ? "yes" : "no")\nweb running: \(webState.running ? "yes" : "no")") }
                }
            }
            if webState.installed, webState.managed, !webState.running {
                context.console.note("warning: \(webUnit.name): installed but not running: the web page is down; alarms still ring ('systemctl --user restart \(webUnit.name)')")
            }
            guard state.installed else {
                context.console.note("error: \(unit.path): the daemon's service is not installed; 'voicealarm service install' installs and starts it")
                return .failure
            }
            guard !state.managed || state.running else {
                context.console.note("error: \(unit.name): installed but not running; 'systemctl --user start \(unit.name)' starts it")
                return .failure
            }
            return .success
        default:
            preconditionFailure("unhandled \(parsed.command ?? "")")
        }
        return .success
    }

    /// `--web` and serve's options for it, checked as `serve` checks them (paths made absolute);
    /// nil without `--web`.
    /// - Throws: `UsageError` for serve's options without `--web`, a bad `--listen`, or `--cert`
    ///   and `--key` one without the other; serve's own error for a pair it would not load.
    private static func webOptions(_ parsed: ParsedArguments, _ context: CommandContext) throws -> WebService.Options? {
        guard parsed[web] else {
            let serveOptions: [any DeclaredOption] = [listen, cert, key, https]
            if let stray = serveOptions.first(where: { parsed.given($0) }) {
                throw UsageError("\(stray.spec.dashed) goes with --web (the web page's service)", command: installSpec.name, input: stray.spec.dashed)
            }
            return nil
        }
        let address = try parsed[listen]
        let certificate = try parsed[cert].map(LibraryAccess.absolute), keyFile = try parsed[key].map(LibraryAccess.absolute)
        switch (certificate, keyFile) {
        case (nil, nil): break
        case (_?, nil):
            throw UsageError("--cert needs --key (the certificate's private key): give both, or neither for a certificate made here",
                             command: installSpec.name, input: "--cert")
        case (nil, _?):
            throw UsageError("--key needs --cert (its certificate): give both, or neither for a certificate made here",
                             command: installSpec.name, input: "--key")
        case (let certificate?, let keyFile?):
            if let ends = try WebServer.checkIdentity(certificateFile: certificate, keyFile: keyFile, now: context.now()) {
                context.console.note(ServeCommands.expiringSoon(certificate, ends: ends, now: context.now()))
            }
        }
        return WebService.Options(listen: address, certificateFile: certificate, keyFile: keyFile, https: parsed[https])
    }

    /// `voicealarm [--data-dir DIR] serve pair [--listen ADDR:PORT] [--https]`, for the page the unit serves.
    private static func pairCommand(_ parsed: ParsedArguments, _ options: WebService.Options) -> String {
        var words = ["voicealarm"]
        if let dataDir = parsed.text(of: GlobalOptions.dataDir) { words += ["--data-dir", shellWord(LibraryAccess.absolute(dataDir))] }
        words += ["serve", "pair"]
        if let listen = options.listen { words += ["--listen", listen] }
        if options.https { words.append("--https") }
        return words.joined(separator: " ")
    }

    /// `word` as a shell reads it back: as is when plain, else in single quotes.
    private static func shellWord(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "/._-+,:@%=".unicodeScalars.contains($0) }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `{"unit", "installed", "managed", "enabled", "running", "lingering", "web"}` (and
    /// `"cannotWake"` after an install on a machine where the daemon cannot wake it from suspend).
    struct StatusJSON: Encodable {
        /// The web page's service: `{"unit", "installed", "enabled", "running"}`.
        struct WebJSON: Encodable { var unit: String, installed: Bool, enabled: Bool, running: Bool }
        var unit: String, installed: Bool, managed: Bool, enabled: Bool, running: Bool, lingering: Bool, cannotWake: Nullable<String>
        /// Null when the web page's service is not installed.
        var web: Nullable<WebJSON>
        init(_ daemon: DaemonService, web: WebService, cannotWake: String?) {
            let state = daemon.unit.state(), webState = web.unit.state()
            unit = daemon.unit.path
            installed = state.installed
            managed = state.managed
            enabled = state.enabled
            running = state.running
            lingering = state.lingering
            self.cannotWake = .init(cannotWake)
            self.web = .init(webState.installed ? WebJSON(unit: web.unit.path, installed: true, enabled: webState.enabled, running: webState.running) : nil)
        }
    }
}
