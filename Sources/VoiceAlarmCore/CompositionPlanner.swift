/// Decides, clip by clip, what fits under the cap.
///
/// Rules (from the shipping app): clips play in order; a clip is used only if the ringtone
/// including it, gaps counted, stays within the cap; the first clip that would cross the cap
/// stops the playlist, even if later clips would fit; a first clip longer than the cap is cut
/// at the cap.
///
/// The planner is incremental so that the audio side can ask how much room is left before it
/// decodes a clip, and decode no more than that:
/// ```swift
/// var planner = CompositionPlanner(capSamples: 1_278_900, gapSamples: 13_230, sampleRate: 44_100)
/// for (index, clip) in clips.enumerated() {
///     guard let budget = planner.budgetForNextClip else { planner.markRestUnreached(clips.count - index); break }
///     planner.add(measure(clip, upTo: budget))
/// }
/// let composition = planner.composition
/// ```
package struct CompositionPlanner: Sendable {
    package let capSamples: Int
    package let gapSamples: Int
    package let sampleRate: Int
    private var entries: [Composition.Entry] = []
    private var end = 0
    private var stopped = false

    package init(capSamples: Int, gapSamples: Int, sampleRate: Int) {
        precondition(capSamples > 0 && gapSamples >= 0 && sampleRate > 0, "invalid planner settings")
        self.capSamples = capSamples
        self.gapSamples = gapSamples
        self.sampleRate = sampleRate
    }

    package init(settings: RenderSettings) {
        self.init(capSamples: settings.capSamples, gapSamples: settings.gapSamples, sampleRate: settings.sampleRate)
    }

    private var hasUsedClip: Bool { entries.contains(where: \.isUsed) }
    private var nextStart: Int { hasUsedClip ? end + gapSamples : 0 }

    /// The most samples the next clip may have and still fit, or nil once the playlist has
    /// stopped (the next clip will not be used whatever its length, so it need not be read).
    ///
    /// A first clip is cut rather than refused, so for it the budget is the whole cap: reading
    /// past it would be wasted.
    package var budgetForNextClip: Int? {
        stopped ? nil : max(0, capSamples - nextStart)
    }

    /// Records the next clip's measured extent and decides its fate.
    package mutating func add(_ extent: ClipExtent) {
        let index = entries.count
        guard !stopped else {
            entries.append(.init(index: index, start: nil, length: 0, reason: .afterCap))
            return
        }
        let start = nextStart
        let room = capSamples - start
        switch extent {
        case .exact(let length) where length <= room:
            entries.append(.init(index: index, start: start, length: length, reason: nil))
            end = start + length
        case _ where !hasUsedClip:
            entries.append(.init(index: index, start: start, length: room, reason: .cutAtCap))
            end = start + room
            stopped = true
        case .longerThan(let bound):
            precondition(bound >= room, "a clip measured only to \(bound) samples cannot be judged against \(room)")
            entries.append(.init(index: index, start: nil, length: 0, reason: .crossesCap))
            stopped = true
        case .exact:
            entries.append(.init(index: index, start: nil, length: 0, reason: .crossesCap))
            stopped = true
        }
    }

    /// Records the last `count` clips as never reached: an earlier clip stopped the playlist,
    /// so they are left out (`afterCap`) without being measured, or even opened.
    ///
    /// Call it only once the plan has stopped (`budgetForNextClip` is nil): marking clips that
    /// could still fit as unreached is a bug.
    package mutating func markRestUnreached(_ count: Int) {
        precondition(stopped, "clips marked unreached before the playlist stopped")
        precondition(count >= 0, "a negative number of unreached clips")
        for _ in 0..<count {
            entries.append(.init(index: entries.count, start: nil, length: 0, reason: .afterCap))
        }
    }

    /// The plan so far.
    package var composition: Composition {
        Composition(entries: entries, totalSamples: end, sampleRate: sampleRate, gapSamples: gapSamples)
    }

    /// Plans a whole list of clips at once.
    package static func plan(_ extents: [ClipExtent], capSamples: Int, gapSamples: Int, sampleRate: Int) -> Composition {
        var planner = CompositionPlanner(capSamples: capSamples, gapSamples: gapSamples, sampleRate: sampleRate)
        for extent in extents { planner.add(extent) }
        return planner.composition
    }
}
