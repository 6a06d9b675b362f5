import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmFiles

/// `voicealarm show`: what a ringtone will play, as a summary, a line of blocks, or a picture.
enum ShowCommand: Command {
    static let spec = CommandSpec(
        name: "show", summary: "Show the ringtone a playlist, the manifesto, a clip or an alarm makes; --svg draws it",
        arguments: "PLAYLIST|manifesto|CLIP|ALARM", minimumArguments: 1, maximumArguments: 1,
        options: [svg, width],
        discussion: """
              Renders with the library's settings (into a private temporary folder, removed afterwards)
              and prints each clip's span; on a terminal, a line of blocks shows the waveform with │
              where a clip starts. --svg writes a picture: the waveform (min/max per pixel column), each
              clip's span and title, the gaps, the cap as a red line, clips left out greyed after it
              with their reason, loudness and true peak in the caption. A target with no recording
              shows the default tone, and says so. --json prints {"subject", "duration", "cap",
              "loudness", "truePeak", "defaultTone", "svg", "clips": [{"title", "start", "duration", "used", "reason"}]}.
            """,
        examples: ["voicealarm show morning", "voicealarm show morning --svg morning.svg", "voicealarm show 9c41d2e0 --svg alarm.svg --width 600"])

    static let svg: Option<String?> = .text(
        "svg", value: "FILE", kind: .file, help: "Draw the ringtone as SVG: waveform, clip spans, the cap, what was left out")
    static let width: Option<Double> = .number(
        "width", value: "PX", .closed(200...4000), default: 1200,
        help: "The picture's width in pixels, {range} (default {default}; height a quarter)")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let width = Int(try parsed[Self.width])
        let svg = try parsed[Self.svg]
        if let svg, svg.isEmpty { throw UsageError("\(Self.svg.spec.dashed) needs a file name", command: spec.name, input: Self.svg.spec.dashed) }
        let shown = try RingtoneShow(service: try context.library()).show(parsed.arguments[0])
        let picture = shown.picture
        if let svg { try RingtoneShow.write(picture, to: svg, width: width) }
        context.present(ShownJSON(shown, svg: svg.map(FileSystem.absolutePath))) {
            context.console.result(picture.caption)
            for (index, span) in picture.spans.enumerated() {
                let when = span.used ? String(format: "%6.2f–%6.2f s", span.start, span.start + (span.duration ?? 0)) : "   left out     "
                let line = String(format: "%2d. %@  ", index + 1, when)
                let title = span.title + (span.reason.map { " (\($0))" } ?? "")
                context.console.result(line + context.fitted(title, context.lineWidth - line.count))
            }
            if let columns = context.console.outColumns { context.console.result(picture.blocks(columns: min(columns, 100))) }
        }
        if let reason = shown.defaultTone { context.say("\(shown.subject) has no ringtone (\(reason)): its alarms ring with the default tone, shown here.") }
        if let svg { context.say("Drew \(shown.subject) into \(svg).") }
        return .success
    }

    /// `show --json`.
    struct ShownJSON: Encodable {
        struct Clip: Encodable {
            var title: String, start: Double, duration: Double?, used: Bool, reason: String?
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: Keys.self)
                try c.encode(title, forKey: .title); try c.encode(start, forKey: .start); try c.encode(duration, forKey: .duration)
                try c.encode(used, forKey: .used); try c.encode(reason, forKey: .reason)
            }
            enum Keys: String, CodingKey { case title, start, duration, used, reason }
        }
        var subject: String, duration: Double, cap: Double, loudness: Double?, truePeak: Double?
        var defaultTone: String?, svg: String?, clips: [Clip]

        init(_ shown: RingtoneShow.Shown, svg: String?) {
            subject = shown.subject.description
            duration = Report.seconds(shown.picture.duration)
            cap = shown.picture.cap
            loudness = shown.picture.loudness.flatMap(Report.tenths)
            truePeak = shown.picture.truePeak.flatMap(Report.tenths)
            defaultTone = shown.defaultTone
            self.svg = svg
            clips = shown.picture.spans.map {
                Clip(title: $0.title, start: Report.seconds($0.start), duration: $0.duration.map(Report.seconds), used: $0.used, reason: $0.reason)
            }
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(subject, forKey: .subject); try c.encode(duration, forKey: .duration); try c.encode(cap, forKey: .cap)
            try c.encode(loudness, forKey: .loudness); try c.encode(truePeak, forKey: .truePeak)
            try c.encode(defaultTone, forKey: .defaultTone); try c.encode(svg, forKey: .svg); try c.encode(clips, forKey: .clips)
        }
        enum Keys: String, CodingKey { case subject, duration, cap, loudness, truePeak, defaultTone, svg, clips }
    }
}
