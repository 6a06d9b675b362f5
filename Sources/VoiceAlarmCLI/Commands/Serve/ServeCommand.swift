import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmHTTP
import VoiceAlarmWeb

/// `voicealarm serve`: the web page for the phone in your hand, until Ctrl-C.
enum ServeCommand: Command {
    static let spec = CommandSpec(
        name: "serve", summary: "Serve the web page: alarms, recording and Stop from a phone (runs in the foreground)", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: ServeOptions.all + [noPairing],
        discussion: """
              Prints a pairing link (and its QR code): open it on the phone, name the device, and the
              page is yours. The code in it works once, for 10 minutes; 'voicealarm serve pair' makes
              another. Every browser pairs, loopback included. On 127.0.0.1 (the default) the page is
              plain HTTP; any other address is HTTPS only, with a certificate made here on first start
              (compare the fingerprint printed with the one the browser shows) or your own (--cert and
              --key). Nothing rings through the server: the daemon rings whether it runs or not.
            """,
        examples: [
            "voicealarm serve", "voicealarm serve --listen 0.0.0.0:8470",
            "voicealarm serve --listen 192.168.1.20:8470 --cert bedside.crt --key bedside.key",
        ])
    static let noPairing = Flag("no-pairing", help: "Print no pairing link (a service: its output goes to the journal); 'serve pair' makes one")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let options = try ServeOptions(parsed).server
        // The scheduler and folders the command line names are taken on once, here; every request
        // then opens the library as it is, so a later change at the terminal is never undone.
        let service = try context.library()
        let console = context.console
        let server = try WebServer(
            options, location: LibraryLocation(dataDirectory: service.dataDirectory), now: context.now,
            log: { line in console.note(line) })
        if let ends = server.ownCertificateExpiresSoon, let path = options.certificateFile {
            console.note(expiringSoon(path, ends: ends, now: context.now()))
        }
        let code = parsed[Self.noPairing] ? nil : try ServeCommands.registry(service).newPairingCode()
        let pairing = code.map { (code: $0, link: server.pairingURL($0)) }
        context.present(
            ServingJSON(
                url: server.baseURL, pairing: pairing.map { ServePairCommand.PairingJSON($0.code, link: $0.link, service.timeZone) },
                fingerprint: server.fingerprint)
        ) {
            context.console.result(pairing?.link ?? server.baseURL)
        }
        if !context.quiet { announce(server, pairing: pairing, options, service, console) }
        let stopped = DispatchSemaphore(value: 0)
        InterruptHandler.onInterrupt { _ in stopped.signal() }
        stopped.wait()  // the server's own threads answer; this one waits for Ctrl-C or SIGTERM
        server.stop()
        context.say("Stopped serving.")
        return .success
    }

    /// What the person at the terminal reads once the page is served: where, how to pair (link,
    /// QR code, the other addresses a phone may reach), and the certificate's fingerprint.
    private static func announce(
        _ server: WebServer, pairing: (code: PairingCode, link: String)?, _ options: WebServer.Options,
        _ service: AlarmService, _ console: Console
    ) {
        if let (code, link) = pairing {
            console.note("Serving the alarms of \(service.dataDirectory) at \(server.baseURL). Pair a phone: open the link above, or scan:")
            if let qr = try? QRCode(encoding: link) { for row in qr.terminalText().split(separator: "\n") { console.note(String(row)) } }
            console.note("The code works once, until \(LocalTimeText.clock(code.expires, service.timeZone)); 'voicealarm serve pair' makes another.")
            if options.listen.host == "0.0.0.0" || options.listen.host == "::" {
                let first = MachineAddresses.reachable(for: options.listen)
                let others = MachineAddresses.all().filter {
                    $0 != first && !IPAddressText.isLoopback($0) && (options.listen.host == "::" || IPAddressText.isV4($0))
                }
                if !others.isEmpty {
                    console.note(
                        "If the phone cannot reach that address, this machine also answers at "
                            + others.map { ListenAddress(host: $0, port: server.http.port).description }.joined(separator: ", ") + ".")
                }
            }
            if let fingerprint = server.fingerprint {
                console.note(
                    (server.madeCertificate ? "Made a certificate for this machine" : "HTTPS certificate")
                        + "; its SHA-256 fingerprint, to compare with the browser's:")
                console.note("  \(fingerprint)")
            }
            console.note("The alarms ring through the daemon whether this server runs or not. Ctrl-C stops it.")
        } else {
            console.note("Serving the alarms of \(service.dataDirectory) at \(server.baseURL); 'voicealarm serve pair' prints a pairing link.")
            if let fingerprint = server.fingerprint { console.note("HTTPS certificate's SHA-256 fingerprint: \(fingerprint)") }
        }
    }

    /// The warning for a person's own certificate that ends within 30 days: said at every start
    /// (and by `service install --web`), since a browser refuses the page the moment it ends.
    static func expiringSoon(_ path: String, ends: Date, now: Date) -> String {
        let days = max(0, Int(ends.timeIntervalSince(now) / 86_400))
        return "warning: \(path): the certificate expires on \(TLSIdentity.utcText(ends)) (in \(days) day\(days == 1 ? "" : "s")); "
            + "the phone's browser refuses the page from then on: renew it and restart serve"
    }

    /// `serve --json`, printed once it listens: `{"url", "pairing", "fingerprint"}` (`pairing`
    /// null under `--no-pairing`).
    struct ServingJSON: Encodable {
        var url: String, pairing: Nullable<ServePairCommand.PairingJSON>, fingerprint: Nullable<String>
        init(url: String, pairing: ServePairCommand.PairingJSON?, fingerprint: String?) {
            self.url = url
            self.pairing = .init(pairing)
            self.fingerprint = .init(fingerprint)
        }
    }
}
