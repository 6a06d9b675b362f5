/// Whether a file may be handed to an alarm as its sound.
///
/// An alarm system refuses a sound that is 30 s or longer, has no extension, or is in a
/// format it does not know, and then plays its default tone instead: VoiceAlarm checks the
/// same things before it ever points an alarm at a file.
package enum ShippableSound {
    /// The reasons the file described by `facts` must not be shipped; empty when it may be.
    package static func problems(of facts: SoundFacts) -> [String] {
        var problems: [String] = []
        guard !facts.fileExtension.isEmpty else {
            return ["the file name has no extension (the alarm would fall back to the default tone)"]
        }
        guard let format = RingtoneFormat(fileExtension: facts.fileExtension) else {
            let known = RingtoneFormat.allCases.map(\.rawValue).joined(separator: ", ")
            return [".\(facts.fileExtension) is not an alarm sound format (\(known))"]
        }
        if !containerMatches(format, facts.container) {
            problems.append("the extension says \(format.rawValue) but the file is \(facts.container)")
        } else if !codecAllowed(format, facts.codec) {
            problems.append("\(format.rawValue) with codec \(facts.codec) is not a supported alarm sound")
        }
        if let problem = InputLimits.streamProblem(sampleRate: facts.sampleRate, channels: facts.channels) {
            problems.append(problem)
        }
        if facts.duration >= RenderSettings.hardLimit {
            problems.append("it lasts \(formatSeconds(facts.duration)) s; alarm sounds must be shorter than 30 s")
        }
        if facts.duration <= 0 {
            problems.append("it holds no audio")
        } else if AudioLevels.decibels(amplitude: facts.peak) <= AudioLevels.silentPeakDBFS {
            problems.append("it is silent (no sample above \(Int(AudioLevels.silentPeakDBFS)) dBFS)")
        }
        return problems
    }

    private static func containerMatches(_ format: RingtoneFormat, _ container: String) -> Bool {
        let names = container.split(separator: ",").map(String.init)
        switch format {
        case .m4a: return names.contains("m4a") || names.contains("mp4") || names.contains("mov")
        case .caf: return names.contains("caf")
        case .wav: return names.contains("wav")
        case .aiff: return names.contains("aiff")
        case .mp3: return names.contains("mp3")
        }
    }

    private static func codecAllowed(_ format: RingtoneFormat, _ codec: String) -> Bool {
        let linear = codec.hasPrefix("pcm_")  // linear PCM of any width, µ-law and A-law
        switch format {
        case .m4a: return codec == "aac"
        case .caf, .aiff: return linear || codec == "adpcm_ima_qt"
        case .wav: return linear
        case .mp3: return codec == "mp3"
        }
    }

    private static func formatSeconds(_ s: Double) -> String {
        let tenths = (s * 1000).rounded() / 1000
        return "\(tenths)"
    }
}
