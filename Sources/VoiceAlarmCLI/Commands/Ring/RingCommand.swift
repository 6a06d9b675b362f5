import Foundation
import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm ring`: an alarm making sound now, whatever state the library is in.
enum RingCommand: Command {
    static let spec = CommandSpec(
        name: "ring", summary: "Ring an alarm now: its voice file, else the default tone, looping", arguments: "ALARM",
        minimumArguments: 1, maximumArguments: 1,
        options: [device, maxSeconds, volumeFloor, scheduled, sound, ramp],
        discussion: """
              The mixer of the device is unmuted and raised for the ring, and restored afterwards (a muted
              mixer is Linux's silent switch). The ring loops until 'voicealarm stop', Ctrl-C, SIGTERM or
              --max-seconds. A voice file that fails to play is replaced by the default tone; a device
              that fails is replaced by 'default'; a ring that makes no sound is logged loudly in
              DATA-DIR/events.log. When the library cannot be opened (a full or read-only disk, a
              damaged or locked database) the ring still happens: from the database read without
              writing, else with --sound, else with the default tone; the degraded state is said.
            """,
        examples: ["voicealarm ring 9c41d2e0", "voicealarm ring 9c41d2e0 --device plughw:1,0 --max-seconds 60"])

    static let device: Option<String?> = .text(
        "device", value: "NAME", help: "ALSA playback device (default: 'settings device', else 'default'; falls back to 'default')")
    static let maxSeconds: Option<Double> = .number(
        "max-seconds", value: "SECONDS", .open(lower: 0, upper: 86_400), default: 600,
        help: "Stop after this much ringing, {range} (default {default})")
    static let volumeFloor: Option<Double> = .number(
        "volume-floor", value: "PERCENT", .closed(0...100), default: 70,
        help: "Raise the device's mixer to at least this, {range} (default {default})")
    static let scheduled = Flag("scheduled", help: "Started by a scheduler: more than 10 minutes late is logged as missed, not rung")
    static let sound: Option<String?> = .text(
        "sound", value: "FILE", kind: .file,
        help: "The voice file to ring if the library cannot be read (schedulers set it)")
    static let ramp: Option<Double?> = .number(
        "ramp", value: "SECONDS", .closed(0...VolumeRamp.maximumSeconds),
        help: "Rise from quiet to full level over this long, {range} (default: 'settings ramp', else 0)")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        var options = AlarmRinger.Options()
        options.maxSeconds = try parsed[Self.maxSeconds]
        options.mixerFloor = try parsed[Self.volumeFloor] / 100
        options.scheduled = parsed[Self.scheduled]
        var location = try context.location()
        location.busyTimeoutMilliseconds = 2_000  // a ring waits briefly for a busy library, then rings from what it can read
        let (subject, _) = try RingSubject.find(
            parsed.arguments[0], in: location, soundHint: try parsed[Self.sound], now: context.now,
            open: { try LibraryAccess.open(location, quiet: context.quiet, console: context.console) })
        options.device = try parsed[Self.device] ?? subject.device ?? "default"
        options.rampSeconds = try parsed[Self.ramp] ?? VolumeRamp.clamped(subject.ramp ?? 0)
        let stop = StopFlag()
        InterruptHandler.onInterrupt { _ in stop.set() }
        // A degraded ring is said even under --quiet: the person must learn the library needs care;
        // and a ring that made no sound always is.
        let ringer = AlarmRinger(
            dataDirectory: subject.dataDirectory, now: context.now, shouldStop: { stop.isSet },
            say: { notice in
                if subject.degraded == nil, !notice.madeNoSound { context.say(notice.line) } else { context.console.note(notice.line) }
            })
        switch try ringer.ring(subject, options: options) {
        case .rang(let seconds, let sound, let device):
            context.present(
                RangJSON(
                    outcome: "rang", sound: .init(sound), device: .init(device), seconds: Report.seconds(seconds),
                    stopped: stop.isSet, lateBy: .init(nil), degraded: .init(subject.degraded))
            ) {
                context.console.result(sound)
            }
            context.say(String(format: "Rang %@ on '%@' for %.1f s%@.", sound, device, seconds, stop.isSet ? " (stopped)" : ""))
        case .missed(let late):
            context.present(
                RangJSON(
                    outcome: "missed", sound: .init(nil), device: .init(nil), seconds: 0, stopped: false,
                    lateBy: .init(Report.seconds(late)), degraded: .init(subject.degraded))
            ) {
                context.console.result("missed")
            }
        }
        return .success
    }

    /// `ring --json`: `{"outcome": "rang"|"missed", "sound", "device", "seconds", "stopped", "lateBy", "degraded"}`.
    struct RangJSON: Encodable {
        var outcome: String, sound: Nullable<String>, device: Nullable<String>, seconds: Double, stopped: Bool
        var lateBy: Nullable<Double>, degraded: Nullable<String>
    }
}
