import VoiceAlarm
import VoiceAlarmCore

/// A recording just kept (`clip import`, `POST /api/clips`): the clip's document
/// (`ClipJSON`) and `"cutOff"`, what was left out at its end — null when it was kept whole,
/// else `{"kept", "seconds", "cause", "note"}` (`seconds` null when the file does not say).
package struct KeptClipJSON: Encodable {
    /// `"cutOff"`: seconds kept, seconds cut (rounded to the millisecond), why, and the sentence.
    package struct CutOffJSON: Encodable {
        package var kept: Double, seconds: Nullable<Double>, cause: String, note: String

        package init(_ cut: CutOff) {
            kept = JSONNumbers.seconds(cut.kept)
            seconds = .init(cut.seconds.map(JSONNumbers.seconds))
            cause = cut.cause.rawValue
            note = cut.sentence
        }
    }

    package var clip: ClipJSON
    package var cutOff: Nullable<CutOffJSON>

    package init(_ clip: LibraryClip, cutOff: CutOff?, _ service: AlarmService) {
        self.clip = ClipJSON(clip, service)
        self.cutOff = .init(cutOff.map(CutOffJSON.init))
    }

    /// The clip's keys, then `cutOff`, in one object.
    package func encode(to encoder: any Encoder) throws {
        try clip.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(cutOff, forKey: .cutOff)
    }
    enum Keys: String, CodingKey { case cutOff }
}
