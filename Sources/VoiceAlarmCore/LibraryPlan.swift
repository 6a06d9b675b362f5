/// A ringtone for a target planned from the library's stored lengths alone.
package struct LibraryPlan: Equatable, Sendable {
    /// The target's clips in order, the unusable ones already left out.
    package var clips: [LibraryClip]
    package var composition: Composition
    package var settings: RenderSettings

    /// Plans `clips` (in target order) under `settings`; aligned to whole frames where the codec pads.
    package init(clips: [LibraryClip], settings: RenderSettings) {
        precondition(clips.allSatisfy { $0.sampleRate == settings.sampleRate }, "clips stored at another rate than the settings'")
        var composition = CompositionPlanner.plan(
            clips.map { .exact($0.range(trimSilence: settings.trimSilence).length) },
            capSamples: settings.capSamples, gapSamples: settings.gapSamples, sampleRate: settings.sampleRate)
        if let frame = settings.codec.paddedFrameLength, composition.totalSamples > 0 {
            composition = composition.alignedToFrames(of: frame, capSamples: settings.capSamples)
        }
        self.clips = clips
        self.composition = composition
        self.settings = settings
    }

    /// Everything the ringtone's audio depends on, in a canonical text: the used clips' audio
    /// hashes and ranges, and the settings. Equal identities mean an equal ringtone, so an
    /// unchanged alarm is never rebuilt (and timestamps never decide it).
    package var identity: String { identity(processing: RenderSettings.processing) }

    /// The identity the ringtone had under the processing numbered `processing`: 1 is the
    /// identity of versions before the processing took part in it (no processing part).
    package func identity(processing: Int) -> String {
        precondition(processing >= 1 && processing <= RenderSettings.processing, "no processing \(processing)")
        var parts = processing == 1 ? ["v1", settings.fingerprint] : ["v1", "p\(processing)", settings.fingerprint]
        for entry in composition.usedEntries {
            let clip = clips[entry.index]
            let range = clip.range(trimSilence: settings.trimSilence)
            parts.append("\(clip.contentHash)@\(range.start)+\(entry.length)@\(entry.start!)")
        }
        parts.append("total=\(composition.totalSamples)")
        return parts.joined(separator: "|")
    }
}
