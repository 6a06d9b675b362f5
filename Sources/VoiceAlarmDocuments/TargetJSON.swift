import VoiceAlarm
import VoiceAlarmCore

/// A playlist or the manifesto: `{"name", "duration", "clips": [{"id", "title", "duration"}],
/// "capNote"}` (with `"rebuilds"` after an edit). `capNote` is the planner's own word on what the
/// cap leaves out of the ringtone (or that it is very short), null when it plays whole: the page
/// shows it as it is and never works the cap out itself.
package struct TargetJSON: Encodable {
    package struct Clip: Encodable { package var id: String; package var title: String; package var duration: Double }
    package var name: String
    /// The whole recording's length, untrimmed.
    package var duration: Double
    package var clips: [Clip]
    package var capNote: Nullable<String>
    package var rebuilds: RebuildJSON?

    package init(_ target: Target, clips: [LibraryClip], capNote: CapNote?, rebuilds: RebuildSummary? = nil) {
        name = target.description
        duration = JSONNumbers.seconds(clips.reduce(0) { $0 + $1.duration })
        self.clips = clips.map { Clip(id: $0.idString, title: $0.title, duration: JSONNumbers.seconds($0.duration)) }
        self.capNote = .init(capNote.map { CapText.sentence($0, target: target) })
        self.rebuilds = rebuilds.map(RebuildJSON.init)
    }
}
