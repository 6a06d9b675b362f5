import Foundation
import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmCore

/// `voicealarm ring`, `stop`, `listen`: the alarm making sound.
enum RingCommands {
    static let ringSpec = CommandSpec(
        name: "ring", summary: "Ring an alarm now: its voice file, else the default tone, looping", arguments: "ALARM",
        minimumArguments: 1, maximumArguments: 1,
        options: [
            OptionSpec("device", value: "NAME", help: "ALSA playback device (default: 'settings device', else 'default'; falls back to 'default')"),
            OptionSpec("max-seconds", value: "SECONDS", help: "Stop after this much ringing (default 600)"),
            OptionSpec("volume-floor", value: "PERCENT", help: "Raise the device's mixer to at least this (default 70)"),
            OptionSpec("scheduled", help: "Started by a scheduler: more than 10 minutes late is logged as missed, not rung"),
            OptionSpec("sound", value: "FILE", help: "The voice file to ring if the library cannot be read (schedulers set it)"),
            OptionSpec("ramp", value: "SECONDS", help: "Rise from quiet to full level over this long (default: 'settings ramp', else 0)"),
        ],
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
    static let stopSpec = CommandSpec(
        name: "stop", summary: "Stop every alarm of ours that is ringing, and any pending snooze", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [], examples: ["voicealarm stop"])
    static let snoozeSpec = CommandSpec(
        name: "snooze", summary: "Put the ringing alarm off for its snooze; it rings again after it", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [],
        discussion: """
          Only for alarms added with --snooze MINUTES (snooze is off by default, as in the app our
          rules come from). The ring stops and is scheduled again MINUTES later through the same
          scheduler (a dated one-off; 'alarm list' and 'scheduler list' show it), a minute later
          still if another alarm holds that minute; at most 3 times in a row. 'voicealarm stop'
          ends the ring and cancels its pending snooze (every pending snooze when nothing rings). Nothing ringing, or a ringing alarm without
          snooze or snoozed 3 times: an error, and the ring goes on. --json prints
          [{"alarm", "ringAt", "count", "left"}].
        """,
        examples: ["voicealarm snooze"])
    static let listenSpec = CommandSpec(
        name: "listen", summary: "Hear a playlist, the manifesto, a clip or an alarm's recording, whole", arguments: "PLAYLIST|manifesto|CLIP|ALARM",
        minimumArguments: 1, maximumArguments: 1,
        options: [OptionSpec("device", value: "NAME", help: "ALSA playback device (default: 'settings device', else 'default')"),
                  OptionSpec("ringtone", help: "Play the ringtone it makes instead: capped at 29 s, with the library's settings")],
        discussion: """
          Every clip, whole and untrimmed, in playlist order (the 'Listen' action after the ringtone).
          With --ringtone, what the alarm would play: the capped render, so the cut can be heard
          before waking to it. The name is looked up as a playlist first, then as a clip id, then
          as an alarm id. A device that cannot play is an error (a preview never falls back).
        """,
        examples: ["voicealarm listen morning", "voicealarm listen morning --ringtone", "voicealarm listen 9c41d2e0"])

    static let specs = [ringSpec, stopSpec, snoozeSpec, listenSpec]

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        switch parsed.command {
        case ringSpec.name:
            var options = AlarmRinger.Options()
            options.maxSeconds = try parsed.number("max-seconds", exclusiveUpper: 86_400, exclusiveLower: 0, default: 600)
            options.mixerFloor = try parsed.number("volume-floor", in: 0...100, default: 70) / 100
            options.scheduled = parsed.has("scheduled")
            var location = try context.location()
            location.busyTimeoutMilliseconds = 2_000   // a ring waits briefly for a busy library, then rings from what it can read
            let (subject, _) = try RingSubject.find(parsed.arguments[0], in: location, soundHint: parsed.value("sound"),
                                                    open: { try LibraryAccess.open(location, quiet: context.quiet, console: context.console) })
            options.device = parsed.value("device") ?? subject.device ?? "default"
            options.rampSeconds = parsed.has("ramp") ? try parsed.number("ramp", in: 0...VolumeRamp.maximumSeconds, default: 0)
                : VolumeRamp.clamped(subject.ramp ?? 0)
            let stop = StopFlag()
            InterruptHandler.onInterrupt { _ in stop.set() }
            // A degraded ring is said even under --quiet: the person must learn the library needs care.
            let ringer = AlarmRinger(dataDirectory: subject.dataDirectory, shouldStop: { stop.isSet },
                                     say: { line in subject.degraded == nil ? context.say(line) : context.console.note(line) })
            switch try ringer.ring(subject, options: options) {
            case .rang(let seconds, let sound, let device):
                context.present(RangJSON(outcome: "rang", sound: .init(sound), device: .init(device), seconds: Report.seconds(seconds),
                                         stopped: stop.isSet, lateBy: .init(nil), degraded: .init(subject.degraded))) {
                    context.console.result(sound)
                }
                context.say(String(format: "Rang %@ on '%@' for %.1f s%@.", sound, device, seconds, stop.isSet ? " (stopped)" : ""))
            case .missed(let late):
                context.present(RangJSON(outcome: "missed", sound: .init(nil), device: .init(nil), seconds: 0, stopped: false,
                                         lateBy: .init(Report.seconds(late)), degraded: .init(subject.degraded))) {
                    context.console.result("missed")
                }
            }
        case stopSpec.name:
            let result = RingStopper.stop(in: try context.location(), open: { try context.library() })
            if let problem = result.snoozeProblem { context.console.note("warning: pending snoozes could not be cancelled: \(problem)") }
            let stopped = result.rings.map { $0.uuidString.lowercased() }
            let cancelled = result.snoozesCancelled.map { $0.uuidString.lowercased() }
            context.present(StoppedJSON(stopped: stopped, snoozesCancelled: cancelled)) { for id in stopped { context.console.result(id) } }
            context.say(stopped.isEmpty ? "Nothing of ours is ringing." : "Stopped \(stopped.count) ringing alarm\(stopped.count == 1 ? "" : "s").")
            if !cancelled.isEmpty { context.say("Cancelled the pending snooze of \(cancelled.joined(separator: ", ")).") }
        case snoozeSpec.name:
            // Where there is no library nothing of ours rings (and none is made to say so).
            guard try context.location().hasLibrary else { throw SnoozeRefused(refusal: .nothingRinging) }
            let service = try context.library()
            let snoozed: [Snoozer.Snoozed]
            do { snoozed = try service.snoozes.snooze() } catch let refusal as Snoozer.Refusal { throw SnoozeRefused(refusal: refusal) }
            context.present(snoozed.map { SnoozedJSON($0, service.timeZone) }) {
                for snooze in snoozed { context.console.result(snooze.alarm.uuidString.lowercased()) }
            }
            for snooze in snoozed {
                context.say("Snoozed alarm \(snooze.alarm.uuidString.lowercased()): it rings again at \(LocalTimeText.clock(snooze.ringAt, service.timeZone))"
                            + (snooze.left == 0 ? "; that is the last snooze." : " (\(snooze.left) more snooze\(snooze.left == 1 ? "" : "s") left)."))
            }
            // Said even under --quiet: a snooze nothing will ring is a person not woken.
            for problem in service.sync.problems() { context.console.note("warning: \(problem.sentence)") }
        case listenSpec.name:
            let service = try context.library()
            let stop = StopFlag()
            InterruptHandler.onInterrupt { _ in stop.set() }
            let device = try parsed.value("device") ?? service.settings.device() ?? "default"
            let played = try Previewer(service: service, shouldStop: { stop.isSet }).play(parsed.arguments[0], ringtone: parsed.has("ringtone"), device: device)
            if case .alarm(_, _, voice: false) = played.subject, played.ringtone {
                context.say("note: this alarm's voice is off: it rings with the default tone, not this ringtone ('voicealarm voice on' turns it on).")
            }
            context.present(ListenedJSON(played)) {}   // what was heard is the result; the summary goes to stderr
            context.say(String(format: "Played %@ of %@ on '%@': %.1f s%@.", played.ringtone ? "the ringtone" : "the whole recording",
                               played.subject.description, played.device, played.seconds, played.stopped ? " (stopped)" : ""))
        default:
            preconditionFailure("unhandled \(parsed.command ?? "")")
        }
        return .success
    }

    /// `ring --json`: `{"outcome": "rang"|"missed", "sound", "device", "seconds", "stopped", "lateBy", "degraded"}`.
    struct RangJSON: Encodable {
        var outcome: String, sound: Nullable<String>, device: Nullable<String>, seconds: Double, stopped: Bool
        var lateBy: Nullable<Double>, degraded: Nullable<String>
    }

    /// `stop --json`: `{"stopped": [ids], "snoozesCancelled": [alarm ids]}`.
    struct StoppedJSON: Encodable { var stopped: [String]; var snoozesCancelled: [String] }

    /// `snooze --json`: `[{"alarm", "ringAt", "count", "left"}]`.
    struct SnoozedJSON: Encodable {
        var alarm: String, ringAt: String, count: Int, left: Int
        init(_ snoozed: Snoozer.Snoozed, _ timeZone: TimeZone) {
            alarm = snoozed.alarm.uuidString.lowercased()
            ringAt = Report.iso(snoozed.ringAt, timeZone)
            count = snoozed.count
            left = snoozed.left
        }
    }

    /// A snooze refused: exit 1 with the reason (the ring goes on).
    struct SnoozeRefused: Error, CustomStringConvertible {
        var refusal: Snoozer.Refusal
        var description: String { refusal.description }
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
