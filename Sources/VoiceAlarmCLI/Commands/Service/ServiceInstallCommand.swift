import Foundation
import VoiceAlarm
import VoiceAlarmDocuments
import VoiceAlarmHTTP
import VoiceAlarmWeb

/// `voicealarm service install [--web]`: the daemon (and the web page) as systemd user services.
enum ServiceInstallCommand: Command {
    static let spec = CommandSpec(
        name: "service install", summary: "Run the daemon as a systemd user service, started now and at every login",
        arguments: "", minimumArguments: 0, maximumArguments: 0, options: [web] + ServeOptions.all,
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
    static let web = Flag("web", help: "Also serve the web page ('voicealarm serve') as a service beside the daemon's")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        // The web page's options are checked before anything is opened or written.
        let webOptions = try Self.webOptions(parsed, context)
        let location = try context.location()
        let daemon = try DaemonService(service: try context.library(), location: location)
        let unit = daemon.unit
        let webService = try WebService(beside: daemon, options: webOptions ?? .init())
        let existed = try unit.install()
        let webExisted = try webOptions.map { _ in try webService.unit.install() }
        context.present(ServiceCommands.StatusJSON(daemon, web: webService, cannotWake: daemon.cannotWake)) {
            context.console.result(unit.path)
            if webOptions != nil { context.console.result(webService.unit.path) }
        }
        report(daemon, existed: existed, web: webOptions.map { ($0, webService, webExisted ?? false) }, location, parsed, context)
        return .success
    }

    /// What the person reads after an install: what was written or started, how to pair a phone
    /// with the web page's service, and what keeps the daemon from running or waking the machine.
    private static func report(_ daemon: DaemonService, existed: Bool, web: (options: WebService.Options, service: WebService, existed: Bool)?,
                               _ location: LibraryLocation, _ parsed: ParsedArguments, _ context: CommandContext) {
        let unit = daemon.unit, state = unit.state()
        if existed { context.console.note("warning: \(unit.name) was already installed; re-wrote it") }
        context.say(state.managed ? "Installed \(unit.name), enabled and started: the alarms of \(unit.dataDirectory) ring without a terminal open."
                                  : "Wrote \(unit.path). No systemd user manager manages it here; to start it: \(daemon.manualSteps)")
        if let (webOptions, webService, webExisted) = web {
            if webExisted { context.console.note("warning: \(webService.unit.name) was already installed; re-wrote it") }
            context.say(state.managed ? "Installed \(webService.unit.name), enabled and started: the web page of \(unit.dataDirectory) on \(webOptions.listen ?? ListenAddress.loopbackDefault.description); it restarts when it fails, and the alarms ring without it."
                                      : "Wrote \(webService.unit.path). No systemd user manager manages it here; to start it: \(webService.manualSteps)")
            context.say("To pair a phone, run \(ServiceCommands.pairCommand(parsed, webOptions)) and open the link it prints (the service prints none: its journal is not private).")
        }
        if !state.lingering { context.say("note: lingering is off: the daemon runs only while you are logged in (loginctl enable-linger \(ProcessInfo.processInfo.environment["USER"] ?? "$USER"))") }
        if let warning = location.buildFolderProblem { context.say("warning: \(warning.sentence(libraryOpens: true))") }
        if let reason = daemon.cannotWake {
            context.say("note: alarms cannot wake this machine from suspend: \(reason.sentence(on: .terminal))")
        }
    }

    /// `--web` and serve's options for it, read as `serve` reads them (paths made absolute) and
    /// the person's own certificate examined as `serve` would; nil without `--web`.
    /// - Throws: `UsageError` for serve's options without `--web`, a bad `--listen`, or `--cert`
    ///   and `--key` one without the other; serve's own error for a pair it would not load.
    private static func webOptions(_ parsed: ParsedArguments, _ context: CommandContext) throws -> WebService.Options? {
        guard parsed[web] else {
            if let stray = ServeOptions.firstGiven(in: parsed) {
                throw UsageError("\(stray.spec.dashed) goes with --web (the web page's service)", command: spec.name, input: stray.spec.dashed)
            }
            return nil
        }
        let options = try ServeOptions(parsed)
        if let certificate = options.certificateFile, let keyFile = options.keyFile,
           let ends = try WebServer.checkIdentity(certificateFile: certificate, keyFile: keyFile, now: context.now()) {
            context.console.note(ServeCommand.expiringSoon(certificate, ends: ends, now: context.now()))
        }
        return WebService.Options(listen: options.listen?.description, certificateFile: options.certificateFile, keyFile: options.keyFile, https: options.https)
    }
}
