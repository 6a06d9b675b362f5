import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles

/// The real `RingtoneRendering`: the library's stored clips through `RingtoneRenderer`, planned
/// from their stored lengths (`StoredClipSource`: no decoding to plan), each read only as far as
/// the plan uses it.
package struct LibraryRenderer: RingtoneRendering {
    package init() {}

    package func render(_ clips: [LibraryClip], settings: RenderSettings, clipsDirectory: String, to output: String) throws -> LoudnessShortfall? {
        try report(clips, settings: settings, clipsDirectory: clipsDirectory, to: output).loudness.shortfall
    }

    /// Renders into a private temporary folder (removed when `body` returns or the command is
    /// interrupted) and hands `body` the report: a ringtone made to be heard or drawn, not kept.
    package func renderPrivately<Result>(
        _ clips: [LibraryClip], settings: RenderSettings, clipsDirectory: String,
        _ body: (RenderReport) throws -> Result
    ) throws -> Result {
        let folder = try TemporaryFiles.makePrivateFolder(prefix: "voicealarm-ringtone")
        TemporaryFiles.registerFolder(folder)
        defer { FileSystem.removeTree(folder); TemporaryFiles.unregisterFolder(folder) }
        return try body(
            try report(
                clips, settings: settings, clipsDirectory: clipsDirectory,
                to: "\(folder)/ringtone.\(settings.format.fileExtension)"))
    }

    /// Renders, and returns what the render did (each clip's span, the loudness): what `show` draws.
    package func report(_ clips: [LibraryClip], settings: RenderSettings, clipsDirectory: String, to output: String) throws -> RenderReport {
        let sources: [any ClipSource] = clips.map { StoredClipSource(clip: $0, clipsDirectory: clipsDirectory) }
        do {
            return try RingtoneRenderer().render(sources, settings: settings, to: output)
        } catch let error as ClipSourceError {
            throw UnusableClip(index: error.index, reason: error.underlying)
        }
    }
}
