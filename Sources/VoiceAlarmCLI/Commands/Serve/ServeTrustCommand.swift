import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmHTTP
import VoiceAlarmWeb

/// `voicealarm serve trust [--remove]`: this library's certificate authority added to this
/// account's browsers (`BrowserTrust`), or taken out again.
enum ServeTrustCommand: Command {
    static let spec = CommandSpec(
        name: "serve trust", summary: "Make this account's browsers trust the page's certificate authority (or --remove it)", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [remove],
        discussion: """
              Adds this library's certificate authority (made by 'serve' on first start, or now) to the
              certificate databases Chromium, Chrome and Firefox read for this account, trusted for web
              sites, with Debian's certutil (libnss3-tools). The authority may certify this machine's
              names and addresses only. Restart the browser afterwards. A phone trusts it from the
              pairing page instead.
            """,
        examples: ["voicealarm serve trust", "voicealarm serve trust --remove"])
    static let remove = Flag("remove", help: "Take the authority out of the browsers' databases again")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let service = try context.library()
        let folder = "\(service.dataDirectory)/web"
        let (authority, _) = try ServerIdentity.authority(folder: folder, now: context.now())
        let trust = BrowserTrust(home: ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory())
        let removing = parsed[Self.remove]
        let stores = removing ? try trust.remove(authority) : try trust.add(authority, file: ServerIdentity.authorityPaths(folder).certificate)
        context.present(TrustJSON(authority: authority.fingerprint, stores: stores.map(\.folder), removed: removing)) {
            for store in stores { context.console.result(store.folder) }
        }
        let named = stores.map { "\($0.browsers) (\($0.folder))" }.joined(separator: ", ")
        if removing {
            context.say(stores.isEmpty ? "No browser of this account held this library's authority." : "Removed this library's authority from \(named).")
        } else {
            context.say("Added this library's authority (SHA-256 \(authority.fingerprint)) to \(named). Restart the browser to use it.")
            context.say("'voicealarm serve trust --remove' takes it out again.")
        }
        return .success
    }

    /// `serve trust --json`: `{"authority", "stores", "removed"}`.
    struct TrustJSON: Encodable {
        var authority: String, stores: [String], removed: Bool
    }
}
