import VoiceAlarm
import VoiceAlarmCore

/// A playlist or the manifesto: `{"name", "duration", "clips": [{"id", "title", "duration"}]}`
/// (with `"rebuilds"` after an edit).
package struct TargetJSON: Encodable {
    package struct Clip: Encodable { package var id: String; package var title: String; package var duration: Double }
    package var name: String
    /// The whole recording's length, untrimmed.
    package var duration: Double
    package var clips: [Clip]
    package var rebuilds: RebuildJSON?

    package init(_ target: Target, clips: [LibraryClip], rebuilds: RebuildSummary? = nil) {
        name = target.description
        duration = JSONNumbers.seconds(clips.reduce(0) { $0 + $1.duration })
        self.clips = clips.map { Clip(id: $0.idString, title: $0.title, duration: JSONNumbers.seconds($0.duration)) }
        self.rebuilds = rebuilds.map(RebuildJSON.init)
    }
}
