import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmDocuments

/// `voicealarm clip say TEXT`: a spoken stand-in, until the person records the affirmation.
enum ClipSayCommand: Command {
    static let spec = CommandSpec(
        name: "clip say", summary: "Make a spoken stand-in by text to speech until you record it; prints its id", arguments: "TEXT",
        minimumArguments: 1, maximumArguments: 1,
        options: [title, voice],
        discussion: """
              An affirmation with no recording yet can still wake you: the text is spoken by eSpeak NG
              and stored like any clip, marked as a spoken stand-in ('clip list' and 'alarm list' say
              so). Record it later with 'clip record --replace CLIP' (or 'clip replace CLIP FILE'): the
              clip keeps its id and places, and exactly the alarms using it are rebuilt and
              re-scheduled with your voice. The text is one line of at most 500 characters, with
              something to say (not only punctuation).
            """,
        examples: ["voicealarm clip say 'I am calm and ready'", "voicealarm clip say 'Je suis prêt' --voice fr --title 'Prêt'"])

    static let title = ClipCommands.title(help: "A name for the clip (default: the text)")
    static let voice: Option<String?> = .text("voice", value: "VOICE", help: "An eSpeak NG voice: en (default), en-us, de, fr… ('espeak-ng --voices')")

    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let title = try parsed[Self.title], voice = try parsed[Self.voice]
        let text = parsed.arguments[0]
        if let problem = SpokenText.problem(text) { throw UsageError("TEXT: \(problem)", command: spec.name, input: text) }
        let service = try context.library()
        let clip: LibraryClip
        do {
            clip = try service.clips.say(text, title: title, voice: voice).clip
        } catch SpeechSynthesizer.Failure.unknownVoice(let unknown) {
            throw UsageError(
                "\(Self.voice.spec.dashed): '\(unknown)' is not an eSpeak NG voice (see 'espeak-ng --voices')", command: spec.name,
                input: Self.voice.spec.dashed)
        }
        context.present(ClipJSON(clip, service)) { context.console.result(clip.idString) }
        context.say(
            String(
                format: "Made a spoken stand-in '%@' (%.2f s) as clip %@; record it in your own voice with 'voicealarm clip record --replace %@'.",
                clip.title, clip.duration, clip.idString, String(clip.idString.prefix(8))))
        return .success
    }
}
