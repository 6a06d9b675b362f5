import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmHTTP
import VoiceAlarmWeb

/// `voicealarm serve devices`: the paired browsers and the scripts' tokens.
enum ServeDevicesCommand: Command {
    static let spec = CommandSpec(
        name: "serve devices", summary: "List the paired browsers and the scripts' tokens", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [],
        discussion: #"  --json prints [{"id", "name", "kind", "created", "lastSeen"}] (never a token)."#,
        examples: ["voicealarm serve devices"])

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let service = try context.library()
        let devices = try ServeCommands.registry(service).all()
        context.present(devices.map { DeviceJSON($0, service.timeZone) }) {
            for device in devices { context.console.result(line(device, service.timeZone)) }
            if devices.isEmpty { context.say("No device is paired: 'voicealarm serve' prints a pairing link.") }
        }
        return .success
    }

    /// `5b1e09c2  browser  Phone  paired Tue 12-01 21:40  seen Wed 12-02 07:01`.
    private static func line(_ device: PairedDevice, _ zone: TimeZone) -> String {
        let kind = device.kind == .browser ? "browser" : "token  "
        let seen = device.lastSeen.map { "seen " + LocalTimeText.short($0, zone) } ?? "never used"
        return "\(device.id.uuidString.lowercased().prefix(8))  \(kind)  \(device.name)  paired \(LocalTimeText.short(device.created, zone))  \(seen)"
    }
}
