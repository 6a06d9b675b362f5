/// The plan of a ringtone: which clips play, where, for how long, and why any were cut.
///
/// A composition is computed from clip lengths alone (see `CompositionPlanner`) and rendered
/// separately, so every cap decision can be checked without audio. All positions are in
/// samples at `sampleRate`.
package struct Composition: Equatable, Sendable {
    /// What happened to one input clip.
    package struct Entry: Equatable, Sendable {
        /// Position of the clip in the input order (0-based).
        package var index: Int
        /// Offset in the ringtone, or nil when the clip is not used.
        package var start: Int?
        /// Samples of the clip that play (0 when unused).
        package var length: Int
        /// Why part or all of the clip was left out, or nil when it plays whole.
        package var reason: CutReason?

        package var isUsed: Bool { start != nil }

        package init(index: Int, start: Int?, length: Int, reason: CutReason?) {
            self.index = index
            self.start = start
            self.length = length
            self.reason = reason
        }
    }

    /// Why a clip was shortened or left out.
    package enum CutReason: String, Equatable, Sendable {
        /// A first clip longer than the cap, cut at the cap with a fade-out.
        case cutAtCap = "cut at cap"
        /// Including the clip would make the ringtone longer than the cap.
        case crossesCap = "crosses cap"
        /// An earlier clip crossed the cap; the playlist stops there.
        case afterCap = "after a clip that crossed the cap"
        /// The ringtone reached the cap and its tail was shortened to a whole encoder frame.
        case frameAligned = "end shortened to fit the encoder's frame at the cap"
    }

    package var entries: [Entry]
    /// Length of the ringtone in samples, gaps included.
    package var totalSamples: Int
    package var sampleRate: Int
    /// Samples of silence between consecutive used clips.
    package var gapSamples: Int

    package var usedEntries: [Entry] { entries.filter(\.isUsed) }
    /// True when the first clip was cut at the cap (the ringtone ends on a cut, so it fades longer).
    package var endsOnCut: Bool { entries.contains { $0.reason == .cutAtCap } }
    package var duration: Double { Double(totalSamples) / Double(sampleRate) }

    /// The same plan made a whole number of `frameLength`-sample frames long, never past `capSamples`:
    /// padded with silence at the end when that fits, otherwise shortened from the end to the
    /// frame boundary below the cap (at most `frameLength - 1` samples lost, within the fade-out).
    package func alignedToFrames(of frameLength: Int, capSamples: Int) -> Composition {
        precondition(frameLength > 0 && capSamples >= frameLength, "frame of \(frameLength) samples under a cap of \(capSamples)")
        var aligned = self
        let roundedUp = (totalSamples + frameLength - 1) / frameLength * frameLength
        guard roundedUp > capSamples else {
            aligned.totalSamples = roundedUp
            return aligned
        }
        let end = capSamples / frameLength * frameLength
        aligned.totalSamples = end
        for i in aligned.entries.indices.reversed() {
            guard let start = aligned.entries[i].start else { continue }
            let over = start + aligned.entries[i].length - end
            guard over > 0 else { break }
            if start >= end {
                aligned.entries[i] = Entry(index: aligned.entries[i].index, start: nil, length: 0, reason: .crossesCap)
            } else {
                aligned.entries[i].length -= over
                if aligned.entries[i].reason == nil { aligned.entries[i].reason = .frameAligned }
            }
        }
        return aligned
    }
}
