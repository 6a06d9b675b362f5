/// A gentle, certain wake-up: a ring that starts quieter and rises to full level over `seconds`,
/// as a gain on the samples played (the ringtone file is unchanged). The gain rises evenly in
/// decibels from `floorDB` — never below it, so the first second is already audible — to 0 dB.
///
/// ```swift
/// let ramp = VolumeRamp(seconds: 20, sampleRate: 44_100)
/// let played = chunk.enumerated().map { $1 * ramp.gain(atSample: start + $0) }
/// ```
package struct VolumeRamp: Equatable, Sendable {
    /// How long the rise takes; 0 plays at full level from the start.
    package let seconds: Double
    package let sampleRate: Int
    /// Where the rise starts, in dB below full level.
    package let floorDB: Double

    /// The longest ramp a person can ask for.
    package static let maximumSeconds = 120.0
    /// The default floor: quiet, but heard.
    package static let defaultFloorDB = -24.0

    package init(seconds: Double, sampleRate: Int, floorDB: Double = VolumeRamp.defaultFloorDB) {
        precondition(seconds >= 0 && sampleRate > 0 && floorDB < 0, "invalid ramp")
        self.seconds = seconds
        self.sampleRate = sampleRate
        self.floorDB = floorDB
    }

    /// A ramp length from somewhere untrusted (a hand-edited or restored setting), made usable:
    /// not a number or negative → 0, longer than the maximum → the maximum.
    package static func clamped(_ seconds: Double) -> Double {
        seconds.isFinite ? min(max(seconds, 0), maximumSeconds) : 0
    }

    /// The linear gain for the sample at `index` of the ring (0 = its first sample).
    package func gain(atSample index: Int) -> Float {
        let length = seconds * Double(sampleRate)
        guard length > 0, Double(index) < length else { return 1 }
        return Float(AudioLevels.amplitude(dB: floorDB * (1 - Double(index) / length)))
    }
}
