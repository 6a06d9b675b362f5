internal import CFFmpeg
import Foundation

/// The single place FFmpeg return codes become Swift errors (SwiftFFmpeg's `throwIfFail`).
enum FFmpegResult {
    static let eof = cffmpeg_error_eof()
    static let again = cffmpeg_error_again()

    /// FFmpeg's text for `code`. The corresponding C function is `av_strerror`.
    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        if cffmpeg_av_strerror()(code, &buffer, buffer.count) < 0 { return "unknown error" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Returns `code` when it is not an error; throws `AudioError.ffmpeg` naming `function` and `path` otherwise.
    @discardableResult
    static func check(_ code: Int32, _ function: String, path: String) throws -> Int32 {
        guard code < 0 else { return code }
        throw AudioError.ffmpeg(path: path, function: function, code: code, message: message(code))
    }

    /// Readies FFmpeg before its first use on `path`: its own logging silenced (errors reach the
    /// user through `AudioError`), and its format, codec and filter libraries opened. Those are
    /// not linked (see `shim.h`), so a command that neither renders nor plays never loads them.
    /// - Throws: `AudioError.ffmpeg` (function `dlopen`) when they cannot be loaded, which is a
    ///   broken installation, in the loader's words.
    static func ready(path: String) throws {
        if let failure = cffmpeg_load() {
            throw AudioError.ffmpeg(path: path, function: "dlopen", code: -1, message: String(cString: failure))
        }
        _ = quietLogging
    }

    /// Silences FFmpeg's own logging once; errors reach the user through `AudioError`.
    private static let quietLogging: Void = { cffmpeg_quiet_logging() }()
}
