import VoiceAlarmCore

/// How the sound builder has a ringtone made from library clips: the real one renders with
/// FFmpeg (`LibraryRenderer`); tests give a fake, so the builder's rules run in milliseconds.
package protocol RingtoneRendering {
    /// Renders `clips`, in order, from their stored copies in `clipsDirectory` into `output`,
    /// checked before it replaces anything; `output` is left as it was when this throws.
    /// - Returns: how far the ringtone was left under its loudness target, and why; nil when on it.
    /// - Throws: `UnusableClip` when one clip is at fault (it is then left out and the render
    ///   tried again without it); any other error when the ringtone as a whole cannot be made.
    func render(_ clips: [LibraryClip], settings: RenderSettings, clipsDirectory: String, to output: String) throws -> LoudnessShortfall?
}
