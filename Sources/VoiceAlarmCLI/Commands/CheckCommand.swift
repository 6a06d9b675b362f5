import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore

/// `voicealarm check`: may this file be an alarm's sound?
enum CheckCommand {
    static let spec = CommandSpec(
        name: "check",
        summary: "Say whether a file is a shippable alarm sound, and why not",
        arguments: "FILE",
        minimumArguments: 1,
        maximumArguments: 1,
        options: [],
        discussion: """
          A file is shippable when its name has an extension, it decodes, it lasts less than
          30 s, it is not silent, and its container and codec are among the five formats
          (m4a/AAC, caf/PCM or IMA4, wav/PCM, aiff/PCM or IMA4, mp3). Exit 0 when it is, 1 when not.
        """,
        examples: ["voicealarm check morning.m4a", "voicealarm check --json morning.caf"])

    /// What `--json` prints.
    struct Verdict: Encodable {
        var file: String
        var shippable: Bool
        var container: String?
        var codec: String?
        var sampleRate: Int?
        var channels: Int?
        var duration: Double?
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
            try c.encode(problems, forKey: .problems)
        }
        private enum CodingKeys: String, CodingKey { case file, shippable, container, codec, sampleRate, channels, duration, problems }
    }

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let file = parsed.arguments[0]
        let verdict: Verdict
        do {
            let inspection = try SoundInspector.inspect(file)
            let facts = inspection.facts
            verdict = Verdict(file: file, shippable: inspection.problems.isEmpty, container: facts.container, codec: facts.codec,
                              sampleRate: facts.sampleRate, channels: facts.channels,
                              duration: (facts.duration * 1000).rounded() / 1000, problems: inspection.problems)
        } catch let error as AudioError {
            // Not decodable is an answer, not a crash: the file is not shippable, and why.
            let reason = String(error.description.dropFirst(file.count + 2))
            verdict = Verdict(file: file, shippable: false, problems: [reason])
        }
        if context.json {
            context.console.result(JSONOutput.encode(verdict))
        } else if verdict.shippable {
            context.console.result(String(format: "%@: shippable (%@, %@, %.2f s)", file, verdict.container!, verdict.codec!, verdict.duration!))
        } else {
            context.console.result("\(file): not shippable: \(verdict.problems.joined(separator: "; "))")
        }
        if !verdict.shippable, !context.quiet {
            context.console.note("error: \(file): not a shippable alarm sound: \(verdict.problems[0])")
        }
        return verdict.shippable ? .success : .failure
    }
}
