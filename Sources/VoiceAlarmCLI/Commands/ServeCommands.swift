import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmHTTP
import VoiceAlarmWeb

/// `voicealarm serve` and its devices: the web page for the phone in your hand, who may use it,
/// and tokens for scripts.
enum ServeCommands {
    static let serveSpec = CommandSpec(
        name: "serve", summary: "Serve the web page: alarms, recording and Stop from a phone (runs in the foreground)", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [listen, cert, key, https, noPairing],
        discussion: """
          Prints a pairing link (and its QR code): open it on the phone, name the device, and the
          page is yours. The code in it works once, for 10 minutes; 'voicealarm serve pair' makes
          another. Every browser pairs, loopback included. On 127.0.0.1 (the default) the page is
          plain HTTP; any other address is HTTPS only, with a certificate made here on first start
          (compare the fingerprint printed with the one the browser shows) or your own (--cert and
          --key). Nothing rings through the server: the daemon rings whether it runs or not.
        """,
        examples: ["voicealarm serve", "voicealarm serve --listen 0.0.0.0:8470",
                   "voicealarm serve --listen 192.168.1.20:8470 --cert bedside.crt --key bedside.key"])
    static let pairSpec = CommandSpec(
        name: "serve pair", summary: "Make a new one-time pairing code for a browser (10 minutes)", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [listen, https],
        discussion: "  Prints the pairing link for the address the server listens on (give it the same --listen).",
        examples: ["voicealarm serve pair --listen 0.0.0.0:8470"])
    static let devicesSpec = CommandSpec(
        name: "serve devices", summary: "List the paired browsers and the scripts' tokens", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [],
        discussion: #"  --json prints [{"id", "name", "kind", "created", "lastSeen"}] (never a token)."#,
        examples: ["voicealarm serve devices"])
    static let revokeSpec = CommandSpec(
        name: "serve revoke", summary: "End a paired browser or token: it is refused from now on", arguments: "DEVICE",
        minimumArguments: 1, maximumArguments: 1, options: [], examples: ["voicealarm serve revoke 5b1e09c2"])
    static let tokenSpec = CommandSpec(
        name: "token create", summary: "Make a token for a script (Authorization: Bearer TOKEN); prints it once", arguments: "NAME",
        minimumArguments: 1, maximumArguments: 1, options: [],
        discussion: "  The token is shown only now (only a digest is kept). 'serve devices' lists it, 'serve revoke' ends it.",
        examples: ["TOKEN=$(voicealarm token create backup-script)"])

    static let specs = [serveSpec, pairSpec, devicesSpec, revokeSpec, tokenSpec]

    static let listen: Option<ListenAddress?> = .reading(
        "listen", value: "ADDR:PORT", help: "Where to listen: 127.0.0.1:8470 by default; 0.0.0.0:8470 for the phones on your network (HTTPS)") { text in
        switch ListenAddress.parse(text) {
        case .success(let address): return address
        case .failure(let failure): throw OptionRefusal(failure.description)
        }
    }
    static let cert: Option<String?> = .text("cert", value: "FILE", kind: .file, help: "Your own certificate (PEM) for HTTPS, with --key")
    static let key: Option<String?> = .text("key", value: "FILE", kind: .file, help: "The certificate's private key (PEM, unencrypted)")
    static let https = Flag("https", help: "HTTPS on loopback too (always on beyond it)")
    static let noPairing = Flag("no-pairing", help: "Print no pairing link (a service: its output goes to the journal); 'serve pair' makes one")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        switch parsed.command {
        case serveSpec.name: return try serve(parsed, context)
        case pairSpec.name:
            let service = try context.library()
            let code = try registry(service).newPairingCode()
            let link = pairingLink(code, listen: try parsed[Self.listen] ?? .loopbackDefault, https: parsed[Self.https])
            context.present(PairingJSON(code, link: link, service.timeZone)) { context.console.result(link) }
            context.say("Open the link on the phone within 10 minutes (code \(code.code)); it works once.")
        case devicesSpec.name:
            let service = try context.library()
            let devices = try registry(service).all()
            context.present(devices.map { DeviceJSON($0, service.timeZone) }) {
                for device in devices { context.console.result(line(device, service.timeZone)) }
                if devices.isEmpty { context.say("No device is paired: 'voicealarm serve' prints a pairing link.") }
            }
        case revokeSpec.name:
            let service = try context.library()
            let device = try registry(service).revoke(parsed.arguments[0])
            context.present(DeviceJSON(device, service.timeZone)) { context.console.result(device.id.uuidString.lowercased()) }
            context.say("Revoked \(device.name): it is refused from now on.")
        case tokenSpec.name:
            let service = try context.library()
            let (device, token) = try registry(service).createToken(name: parsed.arguments[0])
            context.present(TokenJSON(id: device.id.uuidString.lowercased(), name: device.name, token: token)) { context.console.result(token) }
            context.say("Made a token for \(device.name): send it as 'Authorization: Bearer TOKEN'. It is shown only now; 'voicealarm serve revoke \(device.id.uuidString.lowercased().prefix(8))' ends it.")
        default:
            preconditionFailure("unhandled \(parsed.command ?? "")")
        }
        return .success
    }

    private static func serve(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        var options = WebServer.Options()
        options.listen = try parsed[Self.listen] ?? .loopbackDefault
        options.certificateFile = try parsed[Self.cert].map(LibraryAccess.absolute)
        options.keyFile = try parsed[Self.key].map(LibraryAccess.absolute)
        options.https = parsed[Self.https]
        if (options.certificateFile == nil) != (options.keyFile == nil) {
            throw UsageError("--cert and --key go together: give both, or neither for a certificate made here", command: serveSpec.name, input: options.certificateFile == nil ? "--key" : "--cert")
        }
        // The scheduler and folders the command line names are taken on once, here; every request
        // then opens the library as it is, so a later change at the terminal is never undone.
        let service = try context.library()
        let console = context.console
        let server = try WebServer(options, location: LibraryLocation(dataDirectory: service.dataDirectory), now: context.now,
                                   log: { line in console.note(line) })
        if let ends = server.ownCertificateExpiresSoon, let path = options.certificateFile {
            console.note(expiringSoon(path, ends: ends, now: context.now()))
        }
        let code = parsed[Self.noPairing] ? nil : try registry(service).newPairingCode()
        let link = code.map(server.pairingURL)
        context.present(ServingJSON(url: server.baseURL, pairing: code.map { PairingJSON($0, link: server.pairingURL($0), service.timeZone) }, fingerprint: server.fingerprint)) {
            context.console.result(link ?? server.baseURL)
        }
        if !context.quiet, let code, let link {
            console.note("Serving the alarms of \(service.dataDirectory) at \(server.baseURL). Pair a phone: open the link above, or scan:")
            if let qr = try? QRCode(encoding: link) { for row in qr.terminalText().split(separator: "\n") { console.note(String(row)) } }
            console.note("The code works once, until \(LocalTimeText.clock(code.expires, service.timeZone)); 'voicealarm serve pair' makes another.")
            if options.listen.host == "0.0.0.0" || options.listen.host == "::" {
                let first = MachineAddresses.reachable(for: options.listen)
                let others = MachineAddresses.all().filter { $0 != first && !IPAddressText.isLoopback($0) && (options.listen.host == "::" || IPAddressText.isV4($0)) }
                if !others.isEmpty {
                    console.note("If the phone cannot reach that address, this machine also answers at " + others.map { ListenAddress(host: $0, port: server.http.port).description }.joined(separator: ", ") + ".")
                }
            }
            if let fingerprint = server.fingerprint {
                console.note((server.madeCertificate ? "Made a certificate for this machine" : "HTTPS certificate") + "; its SHA-256 fingerprint, to compare with the browser's:")
                console.note("  \(fingerprint)")
            }
            console.note("The alarms ring through the daemon whether this server runs or not. Ctrl-C stops it.")
        } else if !context.quiet {
            console.note("Serving the alarms of \(service.dataDirectory) at \(server.baseURL); 'voicealarm serve pair' prints a pairing link.")
            if let fingerprint = server.fingerprint { console.note("HTTPS certificate's SHA-256 fingerprint: \(fingerprint)") }
        }
        let stopped = DispatchSemaphore(value: 0)
        InterruptHandler.onInterrupt { _ in stopped.signal() }
        stopped.wait()   // the server's own threads answer; this one waits for Ctrl-C or SIGTERM
        server.stop()
        context.say("Stopped serving.")
        return .success
    }

    /// The warning for a person's own certificate that ends within 30 days: said at every start
    /// (and by `service install --web`), since a browser refuses the page the moment it ends.
    static func expiringSoon(_ path: String, ends: Date, now: Date) -> String {
        let days = max(0, Int(ends.timeIntervalSince(now) / 86_400))
        return "warning: \(path): the certificate expires on \(TLSIdentity.utcText(ends)) (in \(days) day\(days == 1 ? "" : "s")); " +
            "the phone's browser refuses the page from then on: renew it and restart serve"
    }

    /// `5b1e09c2  browser  Phone  paired Tue 12-01 21:40  seen Wed 12-02 07:01`.
    private static func line(_ device: PairedDevice, _ zone: TimeZone) -> String {
        let kind = device.kind == .browser ? "browser" : "token  "
        let seen = device.lastSeen.map { "seen " + LocalTimeText.short($0, zone) } ?? "never used"
        return "\(device.id.uuidString.lowercased().prefix(8))  \(kind)  \(device.name)  paired \(LocalTimeText.short(device.created, zone))  \(seen)"
    }

    private static func registry(_ service: AlarmService) -> DeviceRegistry {
        DeviceRegistry(store: service.store, secrets: WebSecrets(), now: service.now)
    }

    private static func pairingLink(_ code: PairingCode, listen: ListenAddress, https: Bool) -> String {
        let tls = https || !listen.isLoopback
        let host = MachineAddresses.reachable(for: listen)
        return (tls ? "https://" : "http://") + ListenAddress(host: host, port: listen.port).description + "/pair?code=\(code.code)"
    }

    /// `serve pair --json`: `{"code", "link", "expires"}`.
    struct PairingJSON: Encodable {
        var code: String, link: String, expires: String
        init(_ code: PairingCode, link: String, _ zone: TimeZone) {
            self.code = code.code
            self.link = link
            expires = LocalTimeText.iso(code.expires, zone)
        }
    }
    /// `serve --json`, printed once it listens: `{"url", "pairing", "fingerprint"}` (`pairing`
    /// null under `--no-pairing`).
    struct ServingJSON: Encodable {
        var url: String, pairing: Nullable<PairingJSON>, fingerprint: Nullable<String>
        init(url: String, pairing: PairingJSON?, fingerprint: String?) {
            self.url = url
            self.pairing = .init(pairing)
            self.fingerprint = .init(fingerprint)
        }
    }
    /// `token create --json`: `{"id", "name", "token"}`.
    struct TokenJSON: Encodable { var id: String, name: String, token: String }
}
