import Foundation
import VoiceAlarmFiles

/// Why the audio layer could not do what was asked: always names the file and the reason,
/// and for FFmpeg failures the C function, its return code and FFmpeg's own text.
package enum AudioError: Error, Equatable, CustomStringConvertible, Sendable {
    case fileNotFound(path: String)
    case isDirectory(path: String)
    case emptyFile(path: String)
    case unreadable(path: String, reason: String)
    /// A FIFO, a device or a socket where a recording was expected: refused before anything
    /// opens it (opening a FIFO blocks; a device never ends). `kind` reads "a FIFO".
    case notRegularFile(path: String, kind: String)
    /// A stream outside what VoiceAlarm reads (`InputLimits`): a sample rate or channel count
    /// only a damaged or hostile header claims. Refused before decoding.
    case unsupportedStream(path: String, reason: String)
    /// A recording longer than the library keeps (`InputLimits.longestRecording`), known from
    /// the header (`declared`) or found while decoding (nil).
    case tooLong(path: String, limit: Double, declared: Double?)
    /// FFmpeg could not recognise the file as a media container.
    case notAudio(path: String, reason: String)
    /// The container holds no audio stream (an image, a video without sound, text).
    case noAudioStream(path: String)
    /// The audio could not be decoded at some point.
    case corrupt(path: String, atSeconds: Double, reason: String)
    /// The file ends before the length its header declares, or in the middle of a frame.
    case truncated(path: String, decoded: Double, declared: Double?)
    case noSamples(path: String)
    /// Nothing louder than the silence threshold: a muted microphone must not become an alarm.
    case silent(path: String, detail: String)
    /// Sound, but outside what people hear from a bedside speaker (an 18.5 kHz or a 25 Hz tone):
    /// treated as silent. `detail` is `Audibility.problem`.
    case inaudible(path: String, detail: String)
    /// An FFmpeg call failed while writing or processing.
    case ffmpeg(path: String, function: String, code: Int32, message: String)
    /// A libebur128 call failed while measuring (out of memory: the machine's, not the audio's).
    case meter(path: String, function: String, code: Int32)
    /// The output was written but does not pass the check it must pass before it is used.
    case invalidOutput(path: String, reason: String)
    /// The output cannot be written where it was asked.
    case cannotWrite(path: String, reason: String)
    /// An ALSA call failed on a sound device.
    case device(name: String, function: String, code: Int32, message: String)

    /// True when the machine is at fault (writing failed: no space, a read-only or missing
    /// folder; a device failed), not the audio: the same input may work once that is fixed.
    package var isEnvironmental: Bool {
        switch self {
        case .cannotWrite, .ffmpeg, .meter, .device: true
        default: false
        }
    }

    /// The file the error is about.
    package var path: String {
        switch self {
        case .fileNotFound(let path), .isDirectory(let path), .emptyFile(let path), .unreadable(let path, _),
            .notRegularFile(let path, _), .unsupportedStream(let path, _), .tooLong(let path, _, _),
            .notAudio(let path, _), .noAudioStream(let path), .corrupt(let path, _, _), .truncated(let path, _, _),
            .noSamples(let path), .silent(let path, _), .inaudible(let path, _), .ffmpeg(let path, _, _, _), .meter(let path, _, _),
            .invalidOutput(let path, _), .cannotWrite(let path, _), .device(let path, _, _, _):
            path
        }
    }

    /// What went wrong, without the file it happened to: for a report that names the file itself.
    package var problem: String {
        switch self {
        case .fileNotFound: "no such file"
        case .isDirectory: "is a directory, not an audio file"
        case .emptyFile: "empty file (0 bytes)"
        case .unreadable(_, let reason): "cannot be read (\(reason))"
        case .notRegularFile(_, let kind): "not a regular file (\(kind))"
        case .unsupportedStream(_, let reason): "\(reason)"
        case .tooLong(_, let limit, let declared?):
            "the header declares \(Self.seconds(declared)) s; a recording may last at most \(Self.minutes(limit))"
        case .tooLong(_, let limit, nil): "longer than \(Self.minutes(limit)), the most a recording may last"
        case .notAudio(_, let reason): "not an audio file (\(reason))"
        case .noAudioStream: "contains no audio stream"
        case .corrupt(_, let at, let reason): "corrupt audio at \(Self.seconds(at)) s (\(reason))"
        case .truncated(_, let decoded, let declared?):
            "truncated: \(Self.seconds(decoded)) s of audio where the header declares \(Self.seconds(declared)) s"
        case .truncated(_, let decoded, nil):
            "truncated: the file ends in the middle of a frame after \(Self.seconds(decoded)) s"
        case .noSamples: "holds no audio samples"
        case .silent(_, let detail): "silent (\(detail))"
        case .inaudible(_, let detail): "inaudible: \(detail)"
        case .ffmpeg(_, let function, let code, let message): "\(function) failed: \(message) (code \(code))"
        case .meter(_, let function, let code): "\(function) failed (libebur128 code \(code))"
        case .invalidOutput(_, let reason): "the rendered ringtone failed its check: \(reason)"
        case .cannotWrite(_, let reason): "cannot write (\(reason))"
        case .device(_, let function, let code, let message):
            "\(function) failed: \(message) (ALSA code \(code)); see 'voicealarm devices' — is PulseAudio or PipeWire running?"
        }
    }

    /// The file (or sound device) and what went wrong with it: one line for a person.
    package var description: String {
        if case .device(let name, _, _, _) = self { return "sound device '\(name)': \(problem)" }
        return "\(path): \(problem)"
    }

    /// Runs `body`, reporting a failed system call (a rename, a flush: `SystemError`) as
    /// `cannotWrite(path:reason:)` for `path`; audio errors pass through as they are.
    static func writing<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as SystemError {
            throw AudioError.cannotWrite(path: path, reason: error.reason)
        }
    }

    static func seconds(_ s: Double) -> String {
        String(format: "%.2f", s)
    }

    /// "10 minutes", "90 s".
    static func minutes(_ s: Double) -> String {
        s >= 60 && s.truncatingRemainder(dividingBy: 60) == 0 ? "\(Int(s / 60)) minutes" : "\(Int(s)) s"
    }
}
