import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm render`: clips in, one ringtone out.
enum RenderCommand: Command {
    static let spec = CommandSpec(
        name: "render",
        summary: "Stitch clips, in order, into one ringtone under the cap",
        arguments: "-o OUT IN...",
        minimumArguments: 1,
        maximumArguments: nil,
        options: [output] + RenderOptions.all + [waveform],
        discussion: """
              Clips play in the order given. A clip is used only if the ringtone including it, gaps
              counted, stays within the cap; the first clip that would cross it stops the playlist.
              A first clip longer than the cap is cut at the cap and faded out. Silence below -50 dBFS
              is trimmed from each clip's ends (50 ms kept). Loudness is measured over the whole
              ringtone (EBU R128) and brought to the target with one gain (at most +20 dB) and a
              limiter, so the true peak stays at or below -1 dBTP after encoding. The file is checked
              before it replaces OUT; on any error OUT is left as it was.
              Prints OUT on stdout (the full report with --json); a summary goes to stderr.
            """,
        examples: [
            "voicealarm render -o morning.m4a calm.wav ready.mp3 grateful.flac",
            "voicealarm render --format caf --codec ima4 -o morning.caf manifesto.m4a",
            "voicealarm render --cap 20 --gap 0.5 --json -o short.m4a a.wav b.wav",
            "voicealarm render -o morning.m4a --waveform morning.svg calm.wav ready.mp3",
        ])

    static let output: Option<String?> = .text(
        "output", short: "o", value: "OUT", kind: .file,
        help: "Where to write the ringtone; its extension picks the format")
    static let waveform: Option<String?> = .text(
        "waveform", value: "FILE.svg", kind: .file, help: "Also draw the ringtone as SVG: waveform, clip spans, the cap",
        problem: { URL(fileURLWithPath: $0).pathExtension.lowercased() == "svg" ? nil : "'\($0)' must end in .svg" })

    /// Turns the options into render settings and the output path, or a usage error.
    static func settings(from parsed: ParsedArguments) throws -> (RenderSettings, String) {
        guard let output = try parsed[Self.output], !output.isEmpty else {
            throw UsageError("missing \(Self.output.spec.usage) (where to write the ringtone)", command: spec.name)
        }
        let format = try resolveFormat(output: output, requested: try parsed[RenderOptions.format])
        return (try RenderOptions.settings(from: parsed, format: format), output)
    }

    /// The format from `--format` and OUT's extension, which must agree when both are there.
    static func resolveFormat(output: String, requested asked: RingtoneFormat?) throws -> RingtoneFormat {
        let known = RingtoneFormat.allCases.map(\.rawValue).joined(separator: ", ")
        let ext = URL(fileURLWithPath: output).pathExtension
        guard !ext.isEmpty else {
            let suggestion = asked.map { " (\(output).\($0.fileExtension))" } ?? ""
            throw UsageError("\(output): the output needs an extension\(suggestion); an alarm falls back to its default tone without one", command: spec.name)
        }
        guard let byExtension = RingtoneFormat(fileExtension: ext) else {
            throw UsageError("\(output): cannot write .\(ext) (formats: \(known))", command: spec.name)
        }
        if let asked, asked != byExtension {
            throw UsageError(
                "\(RenderOptions.format.spec.dashed) \(asked.rawValue) contradicts the output's extension .\(ext)", command: spec.name,
                input: RenderOptions.format.spec.dashed)
        }
        return byExtension
    }

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let (settings, output) = try settings(from: parsed)
        let waveform = try parsed[Self.waveform]
        let report = try FileRenderer().render(parsed.arguments, settings: settings, to: output, picture: waveform)
        if context.json {
            context.console.result(JSONOutput.encode(report))
        } else {
            context.console.result(report.output)
        }
        if !context.quiet { context.console.writeErr(summary(report)) }
        if let shortfall = report.loudness.shortfall {
            // Never silent, not even under --quiet: the ringtone is quieter than asked.
            context.console.writeErr("warning: \(PrintableText.escaped(report.output)): loudness \(shortfall.summary)\n")
        }
        return .success
    }

    /// The sentence or two a person reads after a render.
    static func summary(_ report: RenderReport) -> String {
        let used = report.clips.filter(\.used).count
        var text = String(
            format: "Rendered %d of %d clip%@ into %@: %.2f s, %@ %@ %d Hz mono, %.1f LUFS, true peak %.1f dBTP, %@.\n",
            used, report.clips.count, report.clips.count == 1 ? "" : "s", PrintableText.escaped(report.output), report.duration,
            report.format, report.codec, report.sampleRate, report.loudness.integrated, report.loudness.truePeak,
            byteCount(report.bytes))
        for clip in report.clips where clip.reason != nil {
            let what = clip.used ? String(format: "plays %.2f s", clip.duration) : "left out"
            text += "  \(PrintableText.escaped(clip.input)): \(what) (\(PrintableText.escaped(clip.reason!)))\n"  // file names may hold anything
        }
        return text
    }

    private static func byteCount(_ bytes: Int) -> String {
        bytes >= 1_000_000 ? String(format: "%.1f MB", Double(bytes) / 1e6) : String(format: "%.0f kB", Double(bytes) / 1e3)
    }
}
