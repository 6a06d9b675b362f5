import VoiceAlarmAudio
import VoiceAlarmCore

/// The real `RingtoneRendering`: the library's stored clips through `RingtoneRenderer`, planned
/// from their stored lengths (`StoredClipSource`: no decoding to plan), each read only as far as
/// the plan uses it.
public struct LibraryRenderer: RingtoneRendering {
    public init() {}

    public func render(_ clips: [LibraryClip], settings: RenderSettings, clipsDirectory: String, to output: String) throws {
        _ = try report(clips, settings: settings, clipsDirectory: clipsDirectory, to: output)
    }

    /// Renders, and returns what the render did (each clip's span, the loudness): what `show` draws.
    public func report(_ clips: [LibraryClip], settings: RenderSettings, clipsDirectory: String, to output: String) throws -> RenderReport {
        let sources: [any ClipSource] = clips.map { StoredClipSource(clip: $0, clipsDirectory: clipsDirectory) }
        do {
            return try RingtoneRenderer().render(sources, settings: settings, to: output)
        } catch let error as ClipSourceError {
            throw UnusableClip(index: error.index, reason: error.underlying)
        }
    }
}
