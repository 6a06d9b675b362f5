/// What a person should hear about a target's ringtone as soon as they arrange it: clips left
/// out because one crosses the cap (a short greeting followed by a 35 s manifesto silently
/// becomes a ringtone of the greeting alone), or a ringtone under `RingtoneWarning.shortestQuiet`.
/// Planned from stored lengths (`LibraryPlan`), so it costs no render.
package struct CapNote: Equatable, Sendable {
    /// The clip that crossed the cap: its title and its (trimmed) length in seconds.
    package struct Crossing: Equatable, Sendable {
        package var title: String
        package var seconds: Double

        package init(title: String, seconds: Double) {
            self.title = title
            self.seconds = seconds
        }
    }

    /// Seconds of the cap the ringtone uses.
    package var usedSeconds: Double
    /// The cap, in seconds.
    package var cap: Double
    /// The first clip left out at the cap, when one was.
    package var crossing: Crossing?
    /// How many clips were left out in all.
    package var leftOut: Int

    package init(usedSeconds: Double, cap: Double, crossing: Crossing?, leftOut: Int) {
        self.usedSeconds = usedSeconds
        self.cap = cap
        self.crossing = crossing
        self.leftOut = leftOut
    }

    /// The note for `plan`, or nil when the ringtone plays its whole target (or all the cap
    /// allows of one long first clip) and is at least `RingtoneWarning.shortestQuiet` long.
    package init?(_ plan: LibraryPlan) {
        let composition = plan.composition
        guard !plan.clips.isEmpty else { return nil }
        let crossing = composition.entries.first { $0.reason == .crossesCap }.map { entry in
            let clip = plan.clips[entry.index]
            let length = clip.range(trimSilence: plan.settings.trimSilence).length
            return Crossing(title: clip.title, seconds: Double(length) / Double(clip.sampleRate))
        }
        guard crossing != nil || composition.duration < RingtoneWarning.shortestQuiet else { return nil }
        usedSeconds = composition.duration
        cap = plan.settings.cap
        self.crossing = crossing
        leftOut = composition.entries.filter { !$0.isUsed }.count
    }
}
