import Foundation
import VoiceAlarm
import VoiceAlarmDocuments
import VoiceAlarmHTTP
import VoiceAlarmHome
import VoiceAlarmWeb

/// `voicealarm service install [--web]`: the daemon (and the web page) as systemd user services.
enum ServiceInstallCommand: Command {
    static let spec = CommandSpec(
        name: "service install", summary: "Run the daemon as a systemd user service, started now and at every login",
        arguments: "", minimumArguments: 0, maximumArguments: 0, options: [web, mqtt] + ServeOptions.all,
        discussion: """
              Writes voicealarm-daemon-<id>.service into the unit folder (Restart=on-failure, the installed
              binary, this data dir, the remembered device) and, when a systemd user manager runs, enables
              and starts it. Where no user manager runs, it exits 1 saying what to do (nothing would
              start the daemon); with --unit-dir, a folder of your choosing, it prints the commands to
              run. Installing again re-writes it.
              Without lingering (loginctl enable-linger) the daemon runs only while you are logged in.
              Prints the unit's path.
              With --web, also writes voicealarm-web-<id>.service, running 'voicealarm serve' with
              --listen, --cert and --key as given (Restart=on-failure), and starts it the same
              way; then prints both paths. Neither service needs the other: the alarms ring with the
              web page down.
              With --mqtt, also the Home Assistant bridge (voicealarm-mqtt-<id>.service, running
              'voicealarm mqtt' with the broker's settings it remembered; run it once by hand first).
              Installed from the Debian package, VoiceAlarm ships voicealarm-daemon.service,
              voicealarm-web.service and voicealarm-mqtt.service in /usr/lib/systemd/user, for each account's default data dir.
              For that data dir, when they run this binary (and the web page serve's default options),
              install enables and starts them instead of writing units, and replaces a unit it wrote
              before; another data dir still gets units of its own.
            """,
        examples: [
            "voicealarm service install", "voicealarm --data-dir ~/alarms service install",
            "voicealarm service install --web --listen 0.0.0.0:8470",
        ])
    static let mqtt = Flag(
        "mqtt", help: "Also run the Home Assistant bridge ('voicealarm mqtt', with the settings it remembers) as a service")
    static let web = Flag("web", help: "Also serve the web page ('voicealarm serve') as a service beside the daemon's")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        // The web page's options are checked before anything is opened or written.
        let webOptions = try Self.webOptions(parsed, context)
        let location = try context.location()
        // The bridge runs with what `voicealarm mqtt` remembered once the broker took it.
        let brokerName = try HomeBridgeSettings.remembered(in: location.dataDirectory).map { "\($0.host):\($0.port)" }
        if parsed[Self.mqtt], brokerName == nil {
            throw UsageError(
                "--mqtt: no broker is remembered for this data dir yet: run 'voicealarm mqtt --broker HOST:PORT --username NAME --password-file FILE' once "
                    + "(it remembers them when the broker takes them), then install", command: spec.name, input: "--mqtt")
        }
        let daemon = try DaemonService(service: try context.library(), location: location)
        let unit = daemon.unit
        let webService = try WebService(beside: daemon, options: webOptions ?? .init())
        let installed = try daemon.install()
        let webInstalled = try webOptions.map { _ in try webService.install() }
        if parsed[Self.mqtt] {
            let home = try HomeService(beside: daemon)
            let homeInstalled = try home.install()
            context.console.note(
                homeInstalled.existed
                    ? "\(home.unit.name) was already installed; re-wrote it (the bridge reads the settings 'voicealarm mqtt' remembers)."
                    : "Installed \(home.unit.name): Home Assistant follows the alarms through the broker at \(brokerName ?? "?"); the alarms ring without it.")
        }
        context.present(ServiceCommands.StatusJSON(daemon, web: webService, cannotWake: daemon.cannotWake)) {
            context.console.result(unit.path)
            if webOptions != nil { context.console.result(webService.unit.path) }
        }
        let managed = report(daemon, installed, web: webOptions.map { ($0, webService, webInstalled ?? (false, nil)) }, location, parsed, context)
        guard managed || !unit.inSystemdFolder else {
            // Written (or chosen) where systemd would read it, but no user manager runs to start it:
            // nothing runs the daemon, so nothing would ring. Not done.
            context.console.note(
                "error: \(unit.name): no systemd user manager runs for this account here, so the daemon is not running and no alarm will ring; "
                    + "log in where one runs (or have root run 'loginctl enable-linger \(ProcessInfo.processInfo.environment["USER"] ?? "$USER")') and install again, "
                    + "or keep 'voicealarm daemon' running in a terminal")
            return .failure
        }
        return .success
    }

    /// What the person reads after an install: what was written or started (or retired), how to
    /// pair a phone with the web page's service, and what keeps the daemon from running or waking
    /// the machine. Whether a user manager manages the unit.
    private static func report(
        _ daemon: DaemonService, _ installed: (existed: Bool, retired: DaemonService.Unit?),
        web: (options: WebService.Options, service: WebService, installed: (existed: Bool, retired: DaemonService.Unit?))?,
        _ location: LibraryLocation, _ parsed: ParsedArguments, _ context: CommandContext
    ) -> Bool {
        let unit = daemon.unit, state = unit.state()
        say(unit, installed, managed: state.managed, "the alarms of \(unit.dataDirectory) ring without a terminal open.", context)
        if let (webOptions, webService, webInstalled) = web {
            say(
                webService.unit, webInstalled, managed: state.managed,
                "the web page of \(unit.dataDirectory) on \(webOptions.listen ?? ListenAddress.accountDefault(uid: getuid()).description); it restarts when it fails, and the alarms ring without it.",
                context)
            context.say(
                "To pair a phone, run \(ServiceCommands.pairCommand(parsed, webOptions)) and open the link it prints (the service prints none: its journal is not private)."
            )
        }
        if !state.lingering {
            context.say(
                "note: lingering is off: the daemon runs only while you are logged in (loginctl enable-linger \(ProcessInfo.processInfo.environment["USER"] ?? "$USER"))"
            )
        }
        if let warning = location.buildFolderProblem { context.say("warning: \(warning.sentence(libraryOpens: true))") }
        if let reason = daemon.cannotWake {
            context.say("note: alarms cannot wake this machine from suspend: \(reason.sentence(on: .terminal))")
        }
        return state.managed
    }

    /// What became of one unit: written or enabled, started or not (and what to run then), what
    /// it replaced; `what` says what it does once running.
    private static func say(
        _ unit: DaemonService.Unit, _ installed: (existed: Bool, retired: DaemonService.Unit?), managed: Bool,
        _ what: String, _ context: CommandContext
    ) {
        if let retired = installed.retired { context.say(retiredSentence(retired, for: unit)) }
        if installed.existed {
            context.console.note("warning: \(unit.name) was already \(unit.isShipped ? "enabled; restarted it" : "installed; re-wrote it")")
        }
        switch (unit.isShipped, managed) {
        case (false, true): context.say("Installed \(unit.name), enabled and started: \(what)")
        case (false, false): context.say("Wrote \(unit.path). No systemd user manager manages it here; to start it: \(unit.manualSteps)")
        case (true, true): context.say("Enabled and started \(unit.called) instead of writing a unit: \(what)")
        case (true, false): context.say("\(unit.called) serves this data dir. No systemd user manager runs here; to start it: \(unit.manualSteps)")
        }
    }

    /// What replaced `retired`, a unit of the same data dir and role, by `unit`.
    private static func retiredSentence(_ retired: DaemonService.Unit, for unit: DaemonService.Unit) -> String {
        retired.isShipped
            ? "Disabled \(retired.called): it runs another binary or other options; \(unit.name) runs \(unit.executable) instead."
            : "Removed \(retired.name), which VoiceAlarm had written: the package's \(unit.name) does its work now."
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
            let ends = try ServerIdentity.checkIdentity(certificateFile: certificate, keyFile: keyFile, now: context.now())
        {
            context.console.note(ServeCommand.expiringSoon(certificate, ends: ends, now: context.now()))
        }
        // The sockets serve will hold, for the socket unit that keeps them bound while it is down.
        let address = options.listen ?? .accountDefault(uid: getuid())
        let plan = ListenPlan(address, machineAddresses: MachineAddresses.all(), hostName: MachineAddresses.hostName())
        return WebService.Options(
            listen: options.listen?.description, certificateFile: options.certificateFile, keyFile: options.keyFile,
            listening: address.port == 0 ? [] : plan.sockets.map(\.address.description), dualStack: plan.sockets.contains(where: \.dualStack))
    }
}
