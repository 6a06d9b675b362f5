import Glibc
import VoiceAlarmCore

extension AudioError: ClassifiedError {
    /// A recording the library does not keep, unless the machine failed writing or playing it
    /// (a full disk said apart: FFmpeg's `AVERROR(ENOSPC)`, a write that found no room).
    package var failureKind: FailureKind {
        switch self {
        case .ffmpeg(_, _, let code, _) where code == -ENOSPC || code == -EDQUOT: .diskFull
        case .cannotWrite(_, let reason) where [ENOSPC, EDQUOT].contains(where: { reason == String(cString: strerror($0)) }): .diskFull
        default: isEnvironmental ? .environment : .unusableRecording
        }
    }
    package var failureInput: String? { path }
}

extension ClipSourceError: ClassifiedError {
    /// As the clip's own error.
    package var failureKind: FailureKind { underlying.failureKind }
    package var failureInput: String? { underlying.path }
}

extension SpeechSynthesizer.Failure: ClassifiedError {
    /// The text or voice asked for, unless eSpeak NG itself is missing or failed.
    package var failureKind: FailureKind {
        switch self {
        case .unavailable, .synthesis: .environment
        case .unknownVoice, .nothingSpoken, .tooLong: .invalid
        }
    }
    package var failureInput: String? {
        switch self {
        case .unknownVoice(let voice): voice
        case .nothingSpoken(let text): text
        default: nil
        }
    }
}
