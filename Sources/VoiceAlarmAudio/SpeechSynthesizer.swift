internal import CEspeakNG
import Foundation
import VoiceAlarmFiles

/// Text to speech through libespeak-ng: what `clip say` stores as a spoken stand-in until the
/// person records the affirmation in their own voice.
///
/// eSpeak NG keeps one synthesizer per process (global state, not thread-safe), so every use
/// holds one process-wide lock from `espeak_Initialize` to `espeak_Terminate`.
package struct SpeechSynthesizer: Sendable {
    /// Why speech could not be made.
    package enum Failure: Error, Equatable, CustomStringConvertible, Sendable {
        /// The eSpeak NG data (voices, phonemes) cannot be loaded.
        case unavailable(String)
        /// No voice of this name (`espeak-ng --voices` lists them).
        case unknownVoice(String)
        /// The text made no sound (only punctuation or symbols eSpeak does not speak).
        case nothingSpoken(String)
        /// The text would speak for longer than a recording may last.
        case tooLong(limit: Double)
        case synthesis(String, code: Int32)

        package var description: String {
            switch self {
            case .unavailable(let reason): "text to speech is not available: \(reason) (is Debian's espeak-ng-data installed?)"
            case .unknownVoice(let voice): "--voice: '\(voice)' is not an eSpeak NG voice (see 'espeak-ng --voices')"
            case .nothingSpoken(let text): "'\(text)': nothing in it can be spoken"
            case .tooLong(let limit): "the text would speak for longer than \(Int(limit / 60)) minutes, the longest recording the library keeps"
            case .synthesis(let function, let code): "text to speech failed: \(function) returned \(code)"
            }
        }
    }

    /// Speech made from text: 16-bit mono samples at `sampleRate`.
    package struct Speech: Sendable {
        package var samples: [Int16]
        package var sampleRate: Int
        package var duration: Double { Double(samples.count) / Double(sampleRate) }
    }

    private static let lock = Locked(())

    /// The voice used when none is named.
    package static let defaultVoice = "en"

    package init() {}

    /// Speaks `text` in `voice` (an eSpeak NG voice name such as `en`, `en-us`, `de`, `fr`),
    /// stopping past `longest` seconds of speech.
    package func speak(_ text: String, voice: String = Self.defaultVoice, longest: Double) throws(Failure) -> Speech {
        try Self.lock.withLock { _ throws(Failure) -> Speech in
            guard !voice.isEmpty, voice.count <= 40, voice.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-+_".contains($0)) }) else {
                throw .unknownVoice(voice)
            }
            if let failure = cespeakng_load() { throw .unavailable("libespeak-ng cannot be loaded: \(String(cString: failure))") }
            // Without DONT_EXIT, libespeak-ng ends the process itself when its data is missing.
            // It also prints its own message then; ours says it in one line.
            let rate = QuietStandardError.run { cespeakng_espeak_Initialize()(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, Int32(espeakINITIALIZE_DONT_EXIT)) }
            guard rate > 0 else { throw .unavailable("its voice data cannot be read (espeak_Initialize returned \(rate))") }
            defer { cespeakng_espeak_Terminate()() }
            let chosen = voice.withCString { cespeakng_espeak_SetVoiceByName()($0) }
            guard chosen == EE_OK else { throw .unknownVoice(voice) }

            let buffer = SpeechBuffer(limit: Int(longest * Double(rate)))
            cespeakng_espeak_SetSynthCallback()(collectSpeech)
            let context = Unmanaged.passRetained(buffer)
            defer { context.release() }
            let bytes = text.utf8.count + 1
            let result = text.withCString {
                cespeakng_espeak_Synth()($0, bytes, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, context.toOpaque())
            }
            if buffer.exceeded { throw .tooLong(limit: longest) }
            guard result == EE_OK else { throw .synthesis("espeak_Synth", code: Int32(result.rawValue)) }
            guard buffer.samples.contains(where: { $0 != 0 }) else { throw .nothingSpoken(text) }
            return Speech(samples: buffer.samples, sampleRate: Int(rate))
        }
    }
}

/// Where the callback puts the samples of one `espeak_Synth` call.
private final class SpeechBuffer {
    var samples: [Int16] = []
    let limit: Int
    var exceeded = false
    init(limit: Int) { self.limit = limit }
}

/// eSpeak NG's synthesis callback: appends the samples to the call's `SpeechBuffer` (its
/// `user_data`); returning 1 stops synthesis once the buffer passes its limit.
private let collectSpeech: @convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutablePointer<espeak_EVENT>?) -> Int32 = { wav, count, events in
    guard let events, let context = events.pointee.user_data else { return 0 }
    let buffer = Unmanaged<SpeechBuffer>.fromOpaque(context).takeUnretainedValue()
    if let wav, count > 0 { buffer.samples.append(contentsOf: UnsafeBufferPointer(start: wav, count: Int(count))) }
    if buffer.samples.count > buffer.limit {
        buffer.exceeded = true
        return 1
    }
    return 0
}
