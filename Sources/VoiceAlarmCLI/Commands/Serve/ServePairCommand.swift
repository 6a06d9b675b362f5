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
        discussion: "  Prints the pairing link for the address the server listens on (give it the same --listen).",
        examples: ["voicealarm serve pair --listen 0.0.0.0:8470"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let listen = try parsed[ServeOptions.listen] ?? .accountDefault(uid: getuid())
        let service = try context.library()
        let code = try ServeCommands.registry(service).newPairingCode()
        let plan = ListenPlan(listen, machineAddresses: MachineAddresses.all(), hostName: MachineAddresses.hostName())
        // The authority the running server answers with, when it made one: its fingerprint goes in the link.
        let authority = ServerIdentity.existingAuthority(folder: "\(service.dataDirectory)/web")?.fingerprint
        let link = WebServer.pairingURL(code, baseURL: WebServer.baseURL(host: plan.linkHost, port: listen.port), authority: authority)
        context.present(PairingJSON(code, link: link, service.timeZone)) { context.console.result(link) }
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
