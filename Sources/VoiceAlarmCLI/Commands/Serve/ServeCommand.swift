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
              another. Every browser pairs, loopback included. The page is HTTPS on every address,
              with a certificate from this library's own authority (made on first start, limited to
              this machine's names and addresses), which your browsers and phones trust once:
              'voicealarm serve trust' for this account's browsers, the pairing page for a phone
              (compare the fingerprint printed with the one the phone shows). Or your own (--cert and
              --key). By default it listens on localhost (127.0.0.1 and ::1) on your account's own
              port. Nothing rings through the server: the daemon rings whether it runs or not.
            """,
        examples: [
            "voicealarm serve", "voicealarm serve --listen 0.0.0.0:8470", "voicealarm serve --listen [::]:8470",
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
                fingerprint: server.fingerprint, authority: server.authority?.fingerprint,
                addresses: server.http.sockets.map(\.address.description))
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

    /// What the person at the terminal reads once the page is served: where, what happened to the
    /// certificate, how to trust its authority, and how to pair (link, QR code, the other
    /// addresses a phone may reach).
    private static func announce(
        _ server: WebServer, pairing: (code: PairingCode, link: String)?, _ options: WebServer.Options,
        _ service: AlarmService, _ console: Console
    ) {
        let held = server.http.sockets.map(\.address.description).joined(separator: " and ")
        console.note("Serving the alarms of \(service.dataDirectory) at \(server.baseURL) (listening on \(held)).")
        if let authority = server.authority {
            let folder = server.identityFolder
            switch server.certificateChange {
            case .madeAuthority:
                console.note(
                    "Made this library's certificate authority (\(folder)/authority.pem): it certifies this machine's names and addresses only. "
                        + "Trust it once: 'voicealarm serve trust' for your browsers here; on a phone, the pairing page shows how.")
            case .replacedSelfSigned:
                console.note(
                    "Replaced the self-signed certificate of earlier versions with one from this library's authority (\(folder)/authority.pem). "
                        + "Phones paired at this address keep their pairing once they trust the authority (the pairing page shows how); "
                        + "a browser that opened the page over plain http://127.0.0.1 pairs again at \(server.baseURL).")
            case .renewedAuthority:
                console.note(
                    "Made a new certificate authority for this library (\(folder)/authority.pem): the old one was within 30 days of its end. "
                        + "Trust the new one on every browser ('voicealarm serve trust') and phone (the pairing page shows how).")
            case .issued:
                console.note("Issued a new certificate from this library's authority for what this server holds now.")
            case .kept, .own:
                break
            }
            console.note("The authority's SHA-256 fingerprint, to compare with what the phone shows when it installs it:")
            console.note("  \(authority.fingerprint)")
            if !server.uncertified.isEmpty {
                console.note(
                    "warning: this library's authority may not certify \(server.uncertified.joined(separator: ", ")) (it was made for "
                        + "\((authority.permittedNames + authority.permittedRanges).joined(separator: ", "))): phones cannot open the page there")
            }
        } else {
            console.note("HTTPS certificate's SHA-256 fingerprint: \(server.fingerprint)")
        }
        if let (code, _) = pairing, server.plan.isLoopbackOnly {
            console.note("Pair this machine's browser: open the link above. The code works once, until \(LocalTimeText.clock(code.expires, service.timeZone)).")
            console.note(
                "A phone cannot reach \(held): to pair a phone, serve on the network (--listen 0.0.0.0:PORT); 'voicealarm serve pair' then prints its link.")
        } else if let (code, link) = pairing {
            console.note("Pair a phone on this network: open the link above on it, or scan:")
            if let qr = try? QRCode(encoding: link) { for row in qr.terminalText().split(separator: "\n") { console.note(String(row)) } }
            console.note(
                "The code works once, until \(LocalTimeText.clock(code.expires, service.timeZone)); 'voicealarm serve pair' makes another for this server.")
            let others = server.plan.addresses.filter { $0 != server.plan.linkHost && !IPAddressText.isLoopback($0) }
            if !others.isEmpty {
                console.note(
                    "If the phone cannot reach that address, this server also answers at "
                        + others.map { ListenAddress(host: $0, port: server.http.port).description }.joined(separator: ", ") + ".")
            }
        } else {
            console.note("'voicealarm serve pair' prints a pairing link for this server.")
        }
        console.note("The alarms ring through the daemon whether this server runs or not. Ctrl-C stops it.")
    }

    /// The warning for a person's own certificate that ends within 30 days: said at every start
    /// (and by `service install --web`), since a browser refuses the page the moment it ends.
    static func expiringSoon(_ path: String, ends: Date, now: Date) -> String {
        let days = max(0, Int(ends.timeIntervalSince(now) / 86_400))
        return "warning: \(path): the certificate expires on \(TLSIdentity.utcText(ends)) (in \(days) day\(days == 1 ? "" : "s")); "
            + "the phone's browser refuses the page from then on: renew it and restart serve"
    }

    /// `serve --json`, printed once it listens: `{"url", "pairing", "fingerprint", "authority",
    /// "addresses"}` (`pairing` null under `--no-pairing`; `authority` the authority's
    /// fingerprint, null with the person's own certificate; `addresses` the sockets held).
    struct ServingJSON: Encodable {
        var url: String, pairing: Nullable<ServePairCommand.PairingJSON>, fingerprint: String, authority: Nullable<String>
        var addresses: [String]
        init(url: String, pairing: ServePairCommand.PairingJSON?, fingerprint: String, authority: String?, addresses: [String]) {
            self.url = url
            self.pairing = .init(pairing)
            self.fingerprint = fingerprint
            self.authority = .init(authority)
            self.addresses = addresses
        }
    }
}
