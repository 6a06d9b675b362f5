import Foundation
import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmCore

/// `voicealarm clip record` and `voicealarm devices`: speaking an affirmation into the library.
enum RecordCommand {
    static let recordSpec = CommandSpec(
        name: "clip record", summary: "Record a take from a microphone into the library; prints the clip's id", arguments: "",
        minimumArguments: 0, maximumArguments: 0,
        options: [
            OptionSpec("device", value: "NAME", help: "ALSA capture device (default 'default'; see 'voicealarm devices')"),
            OptionSpec("rate", value: "HZ", help: "Sample rate to ask for (default 48000; the nearest the device has is used)"),
            OptionSpec("channels", value: "N", help: "Channels to capture (default 1)"),
            OptionSpec("max-seconds", value: "SECONDS", help: "Stop after this much audio (counted in captured frames)"),
            OptionSpec("stop-on-silence", value: "SECONDS", help: "After speech, stop when this much silence follows"),
            OptionSpec("title", value: "TEXT", help: "A name for the clip"),
            OptionSpec("replace", value: "CLIP", help: "Give this clip the new audio (its alarms are rebuilt) instead of adding one"),
            OptionSpec("playlist", value: "NAME", help: "Append the new clip to this playlist"),
            OptionSpec("keep", help: "Keep the take file in DATA-DIR/takes even when it is refused"),
        ],
        discussion: """
          Stop with Enter (on a terminal), Ctrl-C, --max-seconds or --stop-on-silence. Audio is written
          to DATA-DIR/takes/ as it arrives, so even a killed recorder leaves a valid file holding what
          was captured. On a terminal a meter shows peak and RMS levels, clipping, the time, and the
          time left; past 29 s a note says the ringtone will be trimmed. An empty or silent take (a
          muted microphone) is refused.
        """,
        examples: ["voicealarm clip record --title 'I am calm' --max-seconds 20",
                   "voicealarm clip record --stop-on-silence 2 --playlist morning",
                   "voicealarm clip record --replace 3f2a9c1e --device plughw:1,0"])
    static let devicesSpec = CommandSpec(
        name: "devices", summary: "List the capture devices, as arecord -L does", arguments: "",
        minimumArguments: 0, maximumArguments: 0, options: [], examples: ["voicealarm devices"])

    static let specs = [recordSpec, devicesSpec]

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        if parsed.command == devicesSpec.name {
            let devices = AlsaCapture.captureDevices()
            for device in devices { context.console.result("\(device.name)\n    \(device.description)") }
            if devices.isEmpty { context.say("No capture devices found.") }
            return .success
        }
        return try record(parsed, context)
    }

    private static func record(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let rate = Int(try parsed.number("rate", in: 8_000...192_000, default: 48_000))
        let channels = Int(try parsed.number("channels", in: 1...8, default: 1))
        let maxSeconds = parsed.has("max-seconds") ? try parsed.number("max-seconds", exclusiveUpper: 86_400, exclusiveLower: 0, default: 0) : nil
        let stopOnSilence = parsed.has("stop-on-silence") ? try parsed.number("stop-on-silence", exclusiveUpper: 600, exclusiveLower: 0, default: 0) : nil
        let device = parsed.value("device") ?? "default"

        // Everything that can be refused is refused before a single frame is captured.
        let service = try context.library()
        let replacing = try parsed.value("replace").map { try service.clip($0) }
        if let playlist = parsed.value("playlist") { _ = try service.existing(.playlist(playlist)) }
        let source = try AlsaCapture(device: device, sampleRate: rate, channels: channels)
        if source.sampleRate != rate {
            context.say("'\(device)' cannot record at \(rate) Hz; recording at \(source.sampleRate) Hz, the nearest it has.")
        }
        let takes = "\(service.store.dataDirectory)/takes"
        try FileManager.default.createDirectory(atPath: takes, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let takePath = "\(takes)/\(UUID().uuidString.lowercased()).wav"
        let writer = try TakeWriter(path: takePath, sampleRate: source.sampleRate, channels: channels)

        let stop = StopFlag()
        InterruptHandler.onInterrupt { _ in stop.set() }
        let meter = Meter(console: context.console, terminal: context.console.errIsTerminal && !context.quiet,
                          quiet: context.quiet, rate: source.sampleRate, maxSeconds: maxSeconds)
        if context.console.errIsTerminal && isatty(STDIN_FILENO) == 1 {
            Thread.detachNewThread { _ = readLine(); stop.set() }
        }
        context.say("Recording from '\(device)' at \(source.sampleRate) Hz\(meter.terminal ? "; press Enter or Ctrl-C to stop" : "")…")
        let take = TakeRecorder(source: source, writer: writer, shouldStop: { stop.isSet }, onLevel: meter.show)
            .record(.init(maxSeconds: maxSeconds, stopOnSilence: stopOnSilence))
        meter.finish()
        return try store(take, replacing: replacing, service: service, parsed: parsed, context: context)
    }

    /// The take enters the library (or replaces a clip's audio); refused takes are kept only with --keep.
    private static func store(_ take: TakeRecorder.Take, replacing: LibraryClip?, service: AlarmService,
                              parsed: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let keep = parsed.has("keep")
        if let failure = take.failure {
            context.console.note(String(format: "error: the recording stopped after %.1f s: %@", take.duration, failure))
        }
        guard take.frames > 0 else {
            if !keep { unlink(take.path) }
            throw RecordError.refused("the take is empty: nothing was captured" + (keep ? " (kept as \(take.path))" : ""))
        }
        let loudness = try? SoundInspector.inspect(take.path, measureLoudness: true).loudness
        let clip: LibraryClip
        var summary = RebuildSummary()
        do {
            if let replacing {
                (clip, summary) = try service.replaceClip(replacing.idString, with: take.path)
            } else {
                clip = try service.importClip(take.path, title: parsed.value("title") ?? Self.defaultTitle())
                if let playlist = parsed.value("playlist") { summary = try service.addToPlaylist(playlist, clips: [clip.idString]) }
            }
        } catch let error as AudioError {
            if !keep { unlink(take.path) }
            if case .silent = error {
                throw RecordError.refused("the take is silent (is the microphone muted?)" + (keep ? "; kept as \(take.path)" : "; not stored"))
            }
            throw error
        }
        if !keep { unlink(take.path) }
        context.console.result(clip.idString)
        var lines = [String(format: "Recorded %.1f s: peak %.1f dBFS, loudness %@, %d overrun%@.", take.duration, take.peak,
                            loudness.map { String(format: "%.1f LUFS", $0.integrated) } ?? "unknown", take.overruns, take.overruns == 1 ? "" : "s")]
        lines.append(replacing == nil ? "Saved as clip \(clip.idString)" + (parsed.value("playlist").map { " and added to '\($0)'" } ?? "") + "."
                                      : "Clip \(clip.idString) now holds the new take.")
        if !summary.rebuilt.isEmpty {
            lines.append("Rebuilt and re-scheduled alarms: " + summary.rebuilt.map { $0.uuidString.lowercased() }.joined(separator: ", ") + ".")
        }
        if keep { lines.append("The take is kept as \(take.path).") }
        for line in lines { context.say(line) }
        return take.failure == nil ? .success : .failure
    }

    /// "Recording 2026-11-30 06:41" when no --title is given.
    static func defaultTitle(_ date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return "Recording \(formatter.string(from: date))"
    }

    /// A take the library will not take.
    enum RecordError: Error, CustomStringConvertible {
        case refused(String)
        var description: String {
            switch self { case .refused(let reason): reason }
        }
    }
}

/// The live level meter on a terminal (redrawn in place), or a plain progress line a second.
final class Meter: @unchecked Sendable {
    let console: Console
    let terminal: Bool
    let quiet: Bool
    let rate: Int
    let maxSeconds: Double?
    private var lastWholeSecond = 0
    private var notedCap = false

    init(console: Console, terminal: Bool, quiet: Bool, rate: Int, maxSeconds: Double?) {
        self.console = console
        self.terminal = terminal
        self.quiet = quiet
        self.rate = rate
        self.maxSeconds = maxSeconds
    }

    func show(_ level: TakeRecorder.Level, frames: Int) {
        guard !quiet else { return }
        let seconds = Double(frames) / Double(rate)
        if seconds > RenderSettings.defaultCap, !notedCap {
            notedCap = true
            console.writeErr((terminal ? "\n" : "") + "note: past 29 s; the whole take is kept, but a ringtone of it is trimmed to the cap (or it won't fit after other clips).\n")
        }
        if terminal {
            // Digital silence peaks at -infinity dBFS: the bar starts at -60.
            let filled = Int((min(max(level.peak, -60), 0) + 60) / 3)
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: 20 - filled)
            let left = maxSeconds.map { String(format: "  %.1f s left", max(0, $0 - seconds)) } ?? ""
            let line = String(format: "\r\u{1B}[2K● REC %5.1f s [%@] peak %6.1f dBFS  rms %6.1f dBFS%@%@",
                              seconds, bar, max(level.peak, -99), max(level.rms, -99), left, level.clipping ? "  CLIPPING" : "")
            console.writeErr(line)
        } else if frames / rate > lastWholeSecond {
            lastWholeSecond = frames / rate
            console.writeErr(String(format: "recording: %.1f s, peak %.1f dBFS\n", seconds, max(level.peak, -99)))
        }
    }

    func finish() { if terminal && !quiet { console.writeErr("\n") } }
}
