import VoiceAlarmAudio
import VoiceAlarmCore

/// The real `RingtoneRendering`: the library's stored clips through `RingtoneRenderer`, planned
/// from their stored lengths (no decoding to plan), each read only as far as the plan uses it.
public struct LibraryRenderer: RingtoneRendering {
    public init() {}

    public func render(_ clips: [LibraryClip], settings: RenderSettings, clipsDirectory: String, to output: String) throws {
        do {
            _ = try RingtoneRenderer(settings: settings).render(LibraryPlan(clips: clips, settings: settings),
                                                                clipsDirectory: clipsDirectory, to: output)
        } catch let error as AudioError where error.path.hasPrefix(clipsDirectory + "/") {
            guard let index = clips.firstIndex(where: { error.path.hasSuffix("/" + $0.fileName) }) else { throw error }
            throw UnusableClip(index: index, reason: error)
        }
    }
}
