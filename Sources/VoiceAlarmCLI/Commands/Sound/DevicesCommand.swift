import Foundation
import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm devices`: the sound devices that open, to record from or ring on.
enum DevicesCommand: Command {
    static let spec = CommandSpec(
        name: "devices", summary: "List the sound devices that open: capture (default) or playback", arguments: "",
        minimumArguments: 0, maximumArguments: 0,
        options: [playback],
        discussion: """
              Sound cards and their devices as 'arecord -l' (or 'aplay -l') shows them, usable as
              hw:CARD,DEVICE or plughw:CARD,DEVICE, then the named devices ('arecord -L') that actually
              open in that direction: every name listed works as --device. --json prints
              {"direction", "cards": [{"index", "id", "name", "devices": [{"device", "id", "name", "subdevices"}],
              "problem"}], "pcms": [{"name", "description"}]}. A PCM that does not answer within 1.5 s (a
              file plugin reading a FIFO nobody writes) is not listed.
            """,
        examples: ["voicealarm devices", "voicealarm devices --playback --json"])

    static let playback = Flag("playback", help: "List playback devices (what alarms ring on) instead of capture devices")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) -> ExitCode {
        let direction: SoundDevices.Direction = parsed[Self.playback] ? .playback : .capture
        let (cards, pcms) = SoundDevices.list(direction)
        context.present(
            DevicesJSON(
                direction: direction.rawValue, cards: cards.map(DevicesJSON.Card.init), pcms: pcms.map { .init(name: $0.name, description: $0.description) })
        ) {
            for card in cards {
                if let problem = card.problem {
                    context.console.note("warning: card \(card.index): cannot be asked about its devices: \(problem) (is this user in the 'audio' group?)")
                }
                for device in card.devices {
                    context.console.result(
                        "card \(card.index): \(card.id) [\(card.name)], device \(device.device): \(device.id) [\(device.name)]  → plughw:\(card.index),\(device.device)"
                    )
                }
            }
            for pcm in pcms { context.console.result(pcm.name + (pcm.description.isEmpty ? "" : "\n    \(pcm.description)")) }
        }
        if cards.isEmpty { context.console.note("no sound cards found") }
        if pcms.isEmpty {
            context.say("No \(direction.rawValue) device opens: is the sound server (PulseAudio, PipeWire) running, and is this user in the 'audio' group?")
        }
        return .success
    }

    /// `devices --json`.
    struct DevicesJSON: Encodable {
        struct Card: Encodable {
            struct Device: Encodable { var device: Int; var id: String; var name: String; var subdevices: Int }
            var index: Int, id: String, name: String, devices: [Device], problem: Nullable<String>
            init(_ card: SoundDevices.Card) {
                index = card.index
                id = card.id
                name = card.name
                problem = .init(card.problem)
                devices = card.devices.map { Device(device: $0.device, id: $0.id, name: $0.name, subdevices: $0.subdevices) }
            }
        }
        struct PCM: Encodable { var name: String; var description: String }
        var direction: String, cards: [Card], pcms: [PCM]
    }

}
