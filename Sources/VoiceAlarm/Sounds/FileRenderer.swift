import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles

/// `voicealarm render`: audio files, in order, into one ringtone file outside any library, and
/// its picture (SVG) when one is asked for.
///
/// The picture's folder is checked before anything is rendered, so a picture that cannot be
/// written never leaves a new ringtone behind; the ringtone is checked before it replaces the
/// output, which is left as it was on any error.
///
/// ```swift
/// let report = try FileRenderer().render(["calm.wav", "ready.mp3"], settings: RenderSettings(), to: "morning.m4a",
///                                        picture: "morning.svg")
/// ```
package struct FileRenderer {
    /// The picture's width in pixels (its height is a quarter).
    package static let pictureWidth = 1200

    package init() {}

    /// Renders `inputs` into `output` under `settings`, then draws the ringtone into `picture`.
    /// - Parameters:
    ///   - picture: where to write the SVG, or nil for none.
    /// - Returns: the render's report (the ringtone's composition, loudness and file facts).
    /// - Throws: `SystemError` when the picture's folder cannot be written (before rendering);
    ///   the decoder's and renderer's errors when the ringtone cannot be made.
    package func render(_ inputs: [String], settings: RenderSettings, to output: String, picture: String? = nil) throws -> RenderReport {
        if let picture {
            let folder = URL(fileURLWithPath: FileSystem.absolutePath(picture)).deletingLastPathComponent().path
            guard FileSystem.isWritableDirectory(folder) else {
                throw SystemError(operation: "open", path: picture, code: FileSystem.isDirectory(folder) ? EACCES : ENOENT)
            }
        }
        let report = try RingtoneRenderer().render(try DecodingClipSource.files(inputs), settings: settings, to: output)
        if let picture {
            let titles = report.clips.map { URL(fileURLWithPath: $0.input).lastPathComponent }
            try RingtoneShow.write(try RingtoneShow.picture(of: report, titles: titles, settings: settings), to: picture, width: Self.pictureWidth)
        }
        return report
    }
}
