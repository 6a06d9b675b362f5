import Foundation
import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm clip record`: speaking an affirmation into the library from a microphone.
enum ClipRecordCommand: Command {
    static let spec = CommandSpec(
        name: "clip record", summary: "Record a take from a microphone into the library; prints the clip's id", arguments: "",
        minimumArguments: 0, maximumArguments: 0,
        options: [device, rate, channels, maxSeconds, stopOnSilence, title, replace, playlist, keep],
        discussion: """
              Stop with Enter (on a terminal), Ctrl-C, --max-seconds or --stop-on-silence. Audio is written
              to DATA-DIR/takes/ as it arrives, so even a killed recorder leaves a valid file holding what
              was captured. On a terminal a meter shows peak and RMS levels, clipping, the time, and the
              time left; past 29 s a note says the ringtone will be trimmed. A take stops at 10 minutes,
              the longest recording the library keeps. An empty or silent take (a muted microphone) is
              refused.
            """,
        examples: [
            "voicealarm clip record --title 'I am calm' --max-seconds 20",
            "voicealarm clip record --stop-on-silence 2 --playlist morning",
            "voicealarm clip record --replace 3f2a9c1e --device plughw:1,0",
        ])
    static let device: Option<String?> = .text("device", value: "NAME", help: "ALSA capture device (default 'default'; see 'voicealarm devices')")
    static let rate: Option<Double> = .number(
        "rate", value: "HZ", .closed(8_000...192_000), default: 48_000,
        help: "Sample rate to ask for, {range} (default {default}; the nearest the device has is used)")
    static let channels: Option<Double> = .number("channels", value: "N", .closed(1...8), default: 1, help: "Channels to capture, {range} (default {default})")
    /// Never longer than the library keeps: a take past it would be refused after the fact.
    static let maxSeconds: Option<Double> = .number(
        "max-seconds", value: "SECONDS", .open(lower: 0, upper: 86_400), default: InputLimits.longestRecording,
        help: "Stop after this much audio (counted in captured frames; at most and by default {default})")
    static let stopOnSilence: Option<Double?> = .number(
        "stop-on-silence", value: "SECONDS", .open(lower: 0, upper: 600),
        help: "After speech, stop when this much silence follows, {range}")
    static let title = ClipCommands.title(help: "A name for the clip")
    static let replace: Option<String?> = .text(
        "replace", value: "CLIP", kind: .clip,
        help: "Give this clip the new audio (its alarms are rebuilt) instead of adding one")
    static let playlist: Option<String?> = .text("playlist", value: "NAME", kind: .playlist, help: "Append the new clip to this playlist")
    static let keep = Flag("keep", help: "Keep the take file in DATA-DIR/takes even when it is refused")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let rate = Int(try parsed[Self.rate])
        let channels = Int(try parsed[Self.channels])
        // Never longer than the library keeps: a take past it would be refused after the fact.
        let longest = InputLimits.longestRecording
        let maxSeconds = try parsed[Self.maxSeconds]
        if maxSeconds > longest {
            throw UsageError(
                "\(Self.maxSeconds.spec.dashed): \(parsed.text(of: Self.maxSeconds) ?? "") is more than \(Int(longest)), the longest recording the library keeps",
                command: spec.name, input: Self.maxSeconds.spec.dashed)
        }
        let stopOnSilence = try parsed[Self.stopOnSilence]
        let device = try parsed[Self.device] ?? "default"
        let title = try parsed[Self.title] ?? Self.defaultTitle(context.now())

        // Everything that can be refused is refused before a single frame is captured.
        let service = try context.library()
        let importer = TakeImporter(service: service)
        let plan = try importer.prepare(replacing: try parsed[Self.replace], playlist: try parsed[Self.playlist])
        let setup = try RecordingSetup(device: device, sampleRate: rate, channels: channels, takePath: plan.takePath)
        if setup.rateDiffers {
            context.say("'\(device)' cannot record at \(rate) Hz; recording at \(setup.sampleRate) Hz, the nearest it has.")
        }

        let stop = StopFlag()
        InterruptHandler.onInterrupt { _ in stop.set() }
        let meter = Meter(
            console: context.console, terminal: context.console.errIsTerminal && !context.quiet,
            quiet: context.quiet, rate: setup.sampleRate, maxSeconds: parsed.given(Self.maxSeconds) ? maxSeconds : nil)
        if context.console.errIsTerminal && isatty(STDIN_FILENO) == 1 {
            Thread.detachNewThread {
                _ = readLine(); stop.set()
            }
        }
        context.say("Recording from '\(device)' at \(setup.sampleRate) Hz\(meter.terminal ? "; press Enter or Ctrl-C to stop" : "")…")
        let take = setup.recorder(shouldStop: { stop.isSet }, onLevel: meter.show)
            .record(.init(maxSeconds: maxSeconds, stopOnSilence: stopOnSilence))
        meter.finish()
        if take.reason == .maxSeconds, !parsed.given(Self.maxSeconds) {
            context.say("The take reached \(Int(longest / 60)) minutes, the longest recording the library keeps; recording stopped.")
        }
        if let failure = take.failure {
            context.console.note(String(format: "error: the recording stopped after %.1f s: %@", take.duration, failure))
        }
        let stored = try importer.finish(take, plan: plan, title: title, keep: parsed[Self.keep])
        report(take, stored, plan: plan, service, context)
        return take.failure == nil ? .success : .failure
    }

    /// The clip's id on stdout; the take's levels and what became of it on stderr.
    private static func report(
        _ take: TakeRecorder.Take, _ stored: TakeImporter.Result, plan: TakeImporter.Plan, _ service: AlarmService, _ context: CommandContext
    ) {
        let clip = stored.clip
        context.present(
            RecordedJSON(
                clip: ClipJSON(clip, service), seconds: Report.seconds(take.duration),
                peak: .init(Report.tenths(take.peak)), loudness: .init(Report.tenths(stored.loudness.integrated)),
                overruns: take.overruns, replaced: plan.replacing != nil, playlist: .init(plan.playlist),
                rebuilds: RebuildJSON(stored.summary), keptTake: .init(stored.keptPath), failure: .init(take.failure),
                cutOff: .init(stored.cutOff.map(KeptClipJSON.CutOffJSON.init)))
        ) {
            context.console.result(clip.idString)
        }
        var lines = stored.cutOff.map { ["warning: the take: \($0.sentence)"] } ?? []
        lines.append(
            String(
                format: "Recorded %.1f s: peak %.1f dBFS, loudness %.1f LUFS, %d overrun%@.", take.duration, take.peak,
                stored.loudness.integrated, take.overruns, take.overruns == 1 ? "" : "s"))
        lines.append(
            plan.replacing == nil
                ? "Saved as clip \(clip.idString)" + (plan.playlist.map { " and added to '\($0)'" } ?? "") + "."
                : "Clip \(clip.idString) now holds the new take.")
        if !stored.summary.rebuilt.isEmpty {
            lines.append("Rebuilt and re-scheduled alarms: " + stored.summary.rebuilt.map { $0.uuidString.lowercased() }.joined(separator: ", ") + ".")
        }
        if let kept = stored.keptPath { lines.append("The take is kept as \(kept).") }
        for line in lines { context.say(line) }
    }

    /// `clip record --json`: the clip, the take's levels (dBFS, LUFS) and what the take changed.
    struct RecordedJSON: Encodable {
        var clip: ClipJSON, seconds: Double, peak: Nullable<Double>, loudness: Nullable<Double>, overruns: Int
        var replaced: Bool, playlist: Nullable<String>, rebuilds: RebuildJSON, keptTake: Nullable<String>
        /// Why the device stopped the take early (exit 1: what was captured is kept).
        var failure: Nullable<String>
        /// What was left out at the take's end (a partial last frame), as `clip import` says it.
        var cutOff: Nullable<KeptClipJSON.CutOffJSON>
    }

    /// "Recording 2026-11-30 06:41" when no --title is given.
    static func defaultTitle(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return "Recording \(formatter.string(from: date))"
    }
}
