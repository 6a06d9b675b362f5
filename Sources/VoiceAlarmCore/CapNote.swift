/// What a person should hear about a target's ringtone as soon as they arrange it: clips left
/// out because one crosses the cap (a short greeting followed by a 35 s manifesto silently
/// becomes a ringtone of the greeting alone) or because a first clip longer than the cap is cut
/// at it, or a ringtone under `RingtoneWarning.shortestQuiet`.
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
    /// The first clip, when it is longer than the cap and cut at it while clips after it are left
    /// out (a 35 s manifesto followed by a 4 s greeting: the greeting never plays).
    package var cutFirst: Crossing?
    /// How many clips were left out in all.
    package var leftOut: Int

    package init(usedSeconds: Double, cap: Double, crossing: Crossing?, cutFirst: Crossing? = nil, leftOut: Int) {
        self.usedSeconds = usedSeconds
        self.cap = cap
        self.crossing = crossing
        self.cutFirst = cutFirst
        self.leftOut = leftOut
    }

    /// The note for `plan`, or nil when the ringtone plays its whole target (or all the cap
    /// allows of one long first clip alone) and is at least `RingtoneWarning.shortestQuiet` long.
    package init?(_ plan: LibraryPlan) {
        let composition = plan.composition
        guard !plan.clips.isEmpty else { return nil }
        func first(_ reason: Composition.CutReason) -> Crossing? {
            composition.entries.first { $0.reason == reason }.map { entry in
                let clip = plan.clips[entry.index]
                let length = clip.range(trimSilence: plan.settings.trimSilence).length
                return Crossing(title: clip.title, seconds: Double(length) / Double(clip.sampleRate))
            }
        }
        let leftOut = composition.entries.filter { !$0.isUsed }.count
        let crossing = first(.crossesCap)
        let cutFirst = leftOut > 0 ? first(.cutAtCap) : nil
        guard crossing != nil || cutFirst != nil || composition.duration < RingtoneWarning.shortestQuiet else { return nil }
        usedSeconds = composition.duration
        cap = plan.settings.cap
        self.crossing = crossing
        self.cutFirst = cutFirst
        self.leftOut = leftOut
    }
}
