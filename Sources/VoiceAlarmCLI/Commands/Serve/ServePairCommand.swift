import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmHTTP
import VoiceAlarmWeb

/// `voicealarm serve pair`: a new one-time pairing code for a browser, and its link.
enum ServePairCommand: Command {
    static let spec = CommandSpec(
        name: "serve pair", summary: "Make a new one-time pairing code for a browser (10 minutes)", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [ServeOptions.listen, ServeOptions.https],
        discussion: """
              Prints the pairing link for the server running now for this library (its address and
              port), with a QR code on stderr when a phone can reach it. With --listen, the link names
              that address instead; with no server running, the default address, once one runs there.
            """,
        examples: ["voicealarm serve pair --listen 0.0.0.0:8470"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let given = try parsed[ServeOptions.listen]
        let service = try context.library()
        let folder = "\(service.dataDirectory)/web"
        let running = ServingRecord.running(folder: folder)
        let base: String, loopbackOnly: Bool
        if let given {
            let plan = ListenPlan(given, machineAddresses: MachineAddresses.all(), hostName: MachineAddresses.hostName())
            (base, loopbackOnly) = (WebServer.baseURL(host: plan.linkHost, port: given.port), plan.isLoopbackOnly)
        } else if let running {
            (base, loopbackOnly) = (running.url, running.loopbackOnly)
        } else {
            let listen = ListenAddress.accountDefault(uid: getuid())
            let plan = ListenPlan(listen, machineAddresses: MachineAddresses.all(), hostName: MachineAddresses.hostName())
            (base, loopbackOnly) = (WebServer.baseURL(host: plan.linkHost, port: listen.port), plan.isLoopbackOnly)
        }
        let code = try ServeCommands.registry(service).newPairingCode()
        // The authority the running server answers with, when it made one: its fingerprint goes in the link.
        let authority = ServerIdentity.existingAuthority(folder: folder)?.fingerprint
        let link = WebServer.pairingURL(code, baseURL: base, authority: authority)
        context.present(PairingJSON(code, link: link, service.timeZone)) { context.console.result(link) }
        if let running, running.url != base {
            context.console.note("warning: the server running now for this library is at \(running.url); this link opens \(base) only once a server runs there")
        } else if running == nil {
            context.console.note("note: no server runs for this library now: the link opens once 'voicealarm serve' runs at \(base)")
        }
        if loopbackOnly {
            context.say("Only this machine can open \(base): a phone cannot reach it; serve on the network (--listen 0.0.0.0:PORT) to pair a phone.")
        } else if !context.quiet, let qr = try? QRCode(encoding: link) {
            context.console.note("Open the link on the phone, or scan:")
            for row in qr.terminalText().split(separator: "\n") { context.console.note(String(row)) }
        }
        context.say("Open the link on the phone within 10 minutes (code \(code.code)); it works once.")
        return .success
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
}
