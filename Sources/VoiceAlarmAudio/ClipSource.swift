import VoiceAlarmCore

/// A clip a ringtone is made from: measured first, only as far as the cap needs, then read.
///
/// `RingtoneRenderer` asks the sources in order and only while the plan has room: each one
/// measures itself within the samples left (`measure(within:trimSilence:sampleRate:)`), the
/// plan decides, and then only the clips it uses give their samples (`samples(_:)`). A source
/// after the first one left out is never asked anything, so its file is never opened.
///
/// Where the audio comes from is the source's business: `DecodingClipSource` decodes a file of
/// any format on demand, `StoredClipSource` plans a library clip from its stored lengths and
/// reads only the planned range of its stored copy, `CachedClipSource` goes through a batch's
/// `BatchClipCache`. All three give the same plan and the same samples for the same audio.
///
/// ```swift
/// let sources = ["calm.wav", "ready.mp3"].map(DecodingClipSource.init(path:))
/// let report = try RingtoneRenderer().render(sources, settings: RenderSettings(), to: "morning.m4a")
/// ```
package protocol ClipSource: AnyObject {
    /// What the report and error messages call the clip: its path, or a library clip's title.
    var name: String { get }

    /// How long the clip is at `sampleRate`, with leading and trailing silence trimmed when
    /// `trimSilence`: exact, or `.longerThan(budget)` once it is known not to fit in `budget`
    /// samples (so a long recording need not be read to its end). Asked at most once, before
    /// anything else.
    /// - Throws: `AudioError` naming the file when the clip cannot be read.
    func measure(within budget: Int, trimSilence: Bool, sampleRate: Int) throws -> ClipExtent

    /// Streams the first `count` samples of the clip as measured (trimmed, at the measured
    /// rate) to `sink`, in order, at most `chunk` at a time, so a render holds a few chunks,
    /// never a whole clip it did not already have. Asked only after `measure`, for at most the
    /// samples it found (the budget, when it found only that the clip is longer), and as often
    /// as the render makes passes over the ringtone.
    /// - Throws: `AudioError` naming the file when the audio cannot be read; what `sink` throws.
    func read(_ count: Int, chunk: Int, into sink: (ArraySlice<Float>) throws -> Void) throws

    /// Samples of silence trimmed off the clip, for the report; known once it is measured
    /// (only the leading silence when it was not read to its end).
    var silenceTrimmed: Int { get }
}

extension ClipSource {
    /// The first `count` samples of the clip as measured, in one array (`read`, collected).
    package func samples(_ count: Int) throws -> [Float] {
        var samples: [Float] = []
        samples.reserveCapacity(count)
        try read(count, chunk: 1 << 16) { samples += $0 }
        return samples
    }
}
