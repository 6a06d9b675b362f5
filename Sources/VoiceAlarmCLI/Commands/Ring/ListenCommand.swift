import Foundation
import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm listen`: a playlist, the manifesto, a clip or an alarm's recording heard whole, or its ringtone.
enum ListenCommand: Command {
    static let spec = CommandSpec(
        name: "listen", summary: "Hear a playlist, the manifesto, a clip or an alarm's recording, whole", arguments: "PLAYLIST|manifesto|CLIP|ALARM",
        minimumArguments: 1, maximumArguments: 1,
        options: [device, ringtone],
        discussion: """
              Every clip, whole and untrimmed, in playlist order (the 'Listen' action after the ringtone).
              With --ringtone, what the alarm would play: the capped render, so the cut can be heard
              before waking to it. The name is looked up as a playlist first, then as a clip id, then
              as an alarm id. A device that cannot play is an error (a preview never falls back).
            """,
        examples: ["voicealarm listen morning", "voicealarm listen morning --ringtone", "voicealarm listen 9c41d2e0"])

    static let device: Option<String?> = .text("device", value: "NAME", help: "ALSA playback device (default: 'settings device', else 'default')")
    static let ringtone = Flag("ringtone", help: "Play the ringtone it makes instead: capped at 29 s, with the library's settings")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let service = try context.library()
        let stop = StopFlag()
        InterruptHandler.onInterrupt { _ in stop.set() }
        let device = try parsed[Self.device] ?? service.settings.device() ?? "default"
        let played = try Previewer(service: service, shouldStop: { stop.isSet }).play(parsed.arguments[0], ringtone: parsed[Self.ringtone], device: device)
        if case .alarm(_, _, voice: false) = played.subject, played.ringtone {
            context.say("note: this alarm's voice is off: it rings with the default tone, not this ringtone ('voicealarm voice on' turns it on).")
        }
        context.present(ListenedJSON(played)) {}  // what was heard is the result; the summary goes to stderr
        context.say(
            String(
                format: "Played %@ of %@ on '%@': %.1f s%@.", played.ringtone ? "the ringtone" : "the whole recording",
                played.subject.description, played.device, played.seconds, played.stopped ? " (stopped)" : ""))
        return .success
    }

    /// `listen --json`: `{"subject", "ringtone", "device", "seconds", "stopped", "clips": [ids]}`.
    struct ListenedJSON: Encodable {
        var subject: String, ringtone: Bool, device: String, seconds: Double, stopped: Bool, clips: [String]
        init(_ played: Previewer.Played) {
            subject = played.subject.description
            ringtone = played.ringtone
            device = played.device
            seconds = Report.seconds(played.seconds)
            stopped = played.stopped
            clips = played.clips.map(\.idString)
        }
    }
}
