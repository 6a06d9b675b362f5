import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm check`: may this file be an alarm's sound?
enum CheckCommand: Command {
    static let spec = CommandSpec(
        name: "check",
        summary: "Say whether a file is a shippable alarm sound, and why not",
        arguments: "FILE",
        minimumArguments: 1,
        maximumArguments: 1,
        options: [targetLUFS],
        discussion: """
              A file is shippable when its name has an extension, it decodes, it lasts less than
              30 s, it is not silent, and its container and codec are among the five formats
              (m4a/AAC, caf/PCM or IMA4, wav/PCM, aiff/PCM or IMA4, mp3). Exit 0 when it is, 1 when not.
              Its loudness and true peak are measured too: a file more than 0.5 LU under the target
              is shippable but gets a warning, "at the true-peak ceiling" or "quiet".
            """,
        examples: ["voicealarm check morning.m4a", "voicealarm check --json morning.caf"])

    static let targetLUFS: Option<Double> = .number(
        "target-lufs", value: "LUFS", .closed(RenderSettings.targetLUFSRange),
        default: RenderSettings.defaultTargetLUFS, help: "The loudness the file is held to, {range} (default {default})")

    /// What `--json` prints.
    struct Verdict: Encodable {
        var file: String
        var shippable: Bool
        var container: String?
        var codec: String?
        var sampleRate: Int?
        var channels: Int?
        var duration: Double?
        var loudness: RenderReport.LoudnessReport?
        var problems: [String]

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(file, forKey: .file)
            try c.encode(shippable, forKey: .shippable)
            try c.encode(container, forKey: .container)
            try c.encode(codec, forKey: .codec)
            try c.encode(sampleRate, forKey: .sampleRate)
            try c.encode(channels, forKey: .channels)
            try c.encode(duration, forKey: .duration)
            try c.encode(loudness, forKey: .loudness)
            try c.encode(problems, forKey: .problems)
        }
        private enum CodingKeys: String, CodingKey { case file, shippable, container, codec, sampleRate, channels, duration, loudness, problems }
    }

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let file = parsed.arguments[0]
        let target = try parsed[Self.targetLUFS]
        let verdict: Verdict
        do {
            let inspection = try SoundInspector.inspect(file, measureLoudness: true)
            let facts = inspection.facts
            let loudness = inspection.loudness.map { measured in
                RenderReport.LoudnessReport(
                    integrated: (measured.integrated * 1000).rounded() / 1000, truePeak: (measured.truePeak * 1000).rounded() / 1000,
                    shortfall: measured.isSilent ? nil : .of(file: measured.integrated, truePeak: measured.truePeak, target: target))
            }
            verdict = Verdict(
                file: file, shippable: inspection.problems.isEmpty, container: facts.container, codec: facts.codec,
                sampleRate: facts.sampleRate, channels: facts.channels,
                duration: (facts.duration * 1000).rounded() / 1000, loudness: loudness, problems: inspection.problems)
        } catch let error as AudioError {
            // Not decodable is an answer, not a crash: the file is not shippable, and why.
            verdict = Verdict(file: file, shippable: false, problems: [error.problem])
        }
        if context.json {
            context.console.result(JSONOutput.encode(verdict))
        } else if verdict.shippable {
            let level = verdict.loudness.map { String(format: ", %.1f LUFS, true peak %.1f dBTP", $0.integrated, $0.truePeak) } ?? ""
            context.console.result(String(format: "%@: shippable (%@, %@, %.2f s", file, verdict.container!, verdict.codec!, verdict.duration!) + level + ")")
        }
        if verdict.shippable, let shortfall = verdict.loudness?.shortfall {
            context.console.note("warning: \(file): loudness \(shortfall.summary)")
        }
        // The verdict is said once: a file that is not shippable is this error line (and exit 1);
        // --json also gives the whole verdict on stdout.
        if !verdict.shippable, !context.quiet {
            context.console.note("error: \(file): not a shippable alarm sound: \(verdict.problems.joined(separator: "; "))")
        }
        return verdict.shippable ? .success : .failure
    }
}
