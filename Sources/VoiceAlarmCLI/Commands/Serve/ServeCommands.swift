import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmHTTP
import VoiceAlarmWeb

/// `voicealarm serve` and its devices: the web page for the phone in your hand, who may use it,
/// and tokens for scripts, in the order help lists them.
enum ServeCommands: CommandGroup {
    static let commands: [any Command.Type] = [
        ServeCommand.self, ServePairCommand.self, ServeTrustCommand.self, ServeDevicesCommand.self, ServeRevokeCommand.self, TokenCreateCommand.self,
    ]

    static func registry(_ service: AlarmService) -> DeviceRegistry {
        DeviceRegistry(store: service.store, secrets: WebSecrets(), now: service.now)
    }
}
