import VoiceAlarm
import VoiceAlarmCore

/// A clip: `{"id", "title", "duration", "path", "spokenText"}` (`spokenText` null for a person's recording).
package struct ClipJSON: Encodable {
    package var id: String, title: String, duration: Double, path: String, spokenText: Nullable<String>

    package init(_ clip: LibraryClip, _ service: AlarmService) {
        id = clip.idString
        title = clip.title
        duration = JSONNumbers.seconds(clip.duration)
        path = service.clips.path(of: clip)
        spokenText = .init(clip.spokenText)
    }
}
