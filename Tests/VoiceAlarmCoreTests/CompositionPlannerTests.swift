import Testing
import VoiceAlarmCore

/// Lengths in seconds → exact extents at 44.1 kHz.
private func extents(_ seconds: [Double]) -> [ClipExtent] {
    seconds.map { .exact(Int(($0 * 44_100).rounded())) }
}

private func plan(_ seconds: [Double], cap: Double = 29, gap: Double = 0) -> Composition {
    let settings = RenderSettings(cap: cap, gap: gap)
    return CompositionPlanner.plan(extents(seconds), capSamples: settings.capSamples, gapSamples: settings.gapSamples, sampleRate: 44_100)
}

@Suite("Planning a ringtone under the cap")
struct CompositionPlannerTests {
    struct CapCase: CustomTestStringConvertible, Sendable {
        var clips: [Double]
        var gap: Double
        var used: Int
        var total: Double
        var testDescription: String { "\(clips) gap \(gap) → \(used) used, \(total) s" }
    }

    @Test(
        "Clips fit while the ringtone including them stays within the cap",
        arguments: [
            CapCase(clips: [10, 10, 8.9], gap: 0, used: 3, total: 28.9),
            CapCase(clips: [10, 10, 9.0], gap: 0, used: 3, total: 29.0),
            CapCase(clips: [10, 10, 9.1], gap: 0, used: 2, total: 20.0),
            CapCase(clips: [28.9], gap: 0, used: 1, total: 28.9),
            CapCase(clips: [29.0], gap: 0, used: 1, total: 29.0),
            CapCase(clips: [9.5, 9.5, 9.5], gap: 0, used: 3, total: 28.5),
            CapCase(clips: [9.5, 9.5, 9.5], gap: 0.5, used: 2, total: 19.5),
            CapCase(clips: [9.0, 9.0, 10.0], gap: 0.5, used: 3, total: 29.0),
            CapCase(clips: [9.0, 9.0, 10.1], gap: 0.5, used: 2, total: 18.5),
        ])
    func capTable(_ c: CapCase) {
        let composition = plan(c.clips, gap: c.gap)
        #expect(composition.usedEntries.count == c.used)
        #expect(composition.totalSamples == Int((c.total * 44_100).rounded()))
        #expect(composition.totalSamples <= RenderSettings(cap: 29).capSamples)
    }

    @Test("A first clip longer than the cap is cut at the cap")
    func firstClipCut() {
        let composition = plan([40, 3])
        #expect(composition.entries[0] == .init(index: 0, start: 0, length: 29 * 44_100, reason: .cutAtCap))
        #expect(composition.entries[1].reason == .afterCap)
        #expect(composition.entries[1].isUsed == false)
        #expect(composition.totalSamples == 29 * 44_100)
        #expect(composition.endsOnCut)
    }

    @Test("The first clip that crosses the cap stops the playlist, even if a later one would fit")
    func stopsAtFirstCrossing() {
        let composition = plan([12, 12, 6, 2])
        #expect(composition.entries.map(\.isUsed) == [true, true, false, false])
        #expect(composition.entries[2].reason == .crossesCap)
        #expect(composition.entries[3].reason == .afterCap)
        #expect(composition.totalSamples == 24 * 44_100)
        #expect(!composition.endsOnCut)
    }

    @Test("Gaps sit between used clips only, and are counted against the cap")
    func gapsBetweenClips() {
        let composition = plan([5, 5, 5], gap: 1)
        #expect(composition.usedEntries.map(\.start) == [0, 6 * 44_100, 12 * 44_100])
        #expect(composition.totalSamples == 17 * 44_100)
    }

    @Test("The budget offered for the next clip is the room left after the gap; none once stopped")
    func budgets() {
        var planner = CompositionPlanner(capSamples: 29 * 44_100, gapSamples: 44_100, sampleRate: 44_100)
        #expect(planner.budgetForNextClip == 29 * 44_100)
        planner.add(.exact(10 * 44_100))
        #expect(planner.budgetForNextClip == 18 * 44_100)
        planner.add(.longerThan(18 * 44_100))
        #expect(planner.budgetForNextClip == nil)
        #expect(planner.composition.entries[1].reason == .crossesCap)
    }

    @Test("A first clip known only to be longer than the cap is cut, not refused")
    func firstClipLowerBound() {
        var planner = CompositionPlanner(capSamples: 1000, gapSamples: 0, sampleRate: 100)
        planner.add(.longerThan(1000))
        #expect(planner.composition.entries[0] == .init(index: 0, start: 0, length: 1000, reason: .cutAtCap))
    }

    struct UnreachedCase: CustomTestStringConvertible, Sendable {
        var measured: [ClipExtent]
        var unreached: Int
        var reasons: [Composition.CutReason?]
        var testDescription: String { "\(measured) then \(unreached) unreached" }
    }

    @Test(
        "Clips after the stop are marked unreached without being measured",
        arguments: [
            UnreachedCase(measured: [.longerThan(1000)], unreached: 2, reasons: [.cutAtCap, .afterCap, .afterCap]),
            UnreachedCase(measured: [.exact(600), .exact(500)], unreached: 1, reasons: [nil, .crossesCap, .afterCap]),
            UnreachedCase(
                measured: [.exact(300), .exact(300), .longerThan(400)], unreached: 3, reasons: [nil, nil, .crossesCap, .afterCap, .afterCap, .afterCap]),
            UnreachedCase(measured: [.exact(600), .longerThan(400)], unreached: 0, reasons: [nil, .crossesCap]),
        ])
    func unreachedRest(_ c: UnreachedCase) {
        var planner = CompositionPlanner(capSamples: 1000, gapSamples: 0, sampleRate: 100)
        for extent in c.measured { planner.add(extent) }
        let stopped = planner.composition
        #expect(planner.budgetForNextClip == nil)
        planner.markRestUnreached(c.unreached)
        let composition = planner.composition
        #expect(composition.entries.map(\.reason) == c.reasons)
        #expect(composition.entries.map(\.index) == Array(c.reasons.indices))
        #expect(composition.entries.dropFirst(c.measured.count).allSatisfy { !$0.isUsed && $0.length == 0 })
        #expect(composition.totalSamples == stopped.totalSamples)
        #expect(planner.budgetForNextClip == nil)
        // The same plan as when every clip is measured.
        let measuredAll = CompositionPlanner.plan(
            c.measured + Array(repeating: .exact(1), count: c.unreached),
            capSamples: 1000, gapSamples: 0, sampleRate: 100)
        #expect(composition == measuredAll)
    }

    @Test("The cap is counted in samples at the output rate, rounded down")
    func capInSamples() {
        #expect(RenderSettings(cap: 29).capSamples == 1_278_900)
        #expect(RenderSettings(cap: 28.99999, sampleRate: 48_000).capSamples == 1_391_999)
    }
}

@Suite("Aligning a ringtone to whole encoder frames")
struct FrameAlignmentTests {
    @Test("A ringtone short of the cap is padded up to the next whole frame")
    func padsWhenRoomLeft() {
        let composition = CompositionPlanner.plan([.exact(2000)], capSamples: 10_000, gapSamples: 0, sampleRate: 1000)
        let aligned = composition.alignedToFrames(of: 1024, capSamples: 10_000)
        #expect(aligned.totalSamples == 2048)
        #expect(aligned.entries == composition.entries)
    }

    @Test("At the cap the tail is shortened to the frame boundary below it")
    func shortensAtCap() {
        let cap = RenderSettings(cap: 29).capSamples
        let composition = CompositionPlanner.plan([.exact(cap - 500), .exact(400)], capSamples: cap, gapSamples: 100, sampleRate: 44_100)
        #expect(composition.totalSamples == cap)
        let aligned = composition.alignedToFrames(of: 1024, capSamples: cap)
        #expect(aligned.totalSamples == 1_277_952)
        #expect(aligned.totalSamples % 1024 == 0)
        // The 400-sample clip started past the boundary: it no longer plays; the first is shortened.
        #expect(aligned.entries[1].isUsed == false)
        #expect(aligned.entries[0].length == 1_277_952)
        #expect(aligned.entries[0].reason == .frameAligned)
    }

    @Test("A cut first clip keeps its cut reason when shortened")
    func keepsCutReason() {
        let composition = CompositionPlanner.plan([.longerThan(1_278_900)], capSamples: 1_278_900, gapSamples: 0, sampleRate: 44_100)
        let aligned = composition.alignedToFrames(of: 64, capSamples: 1_278_900)
        #expect(aligned.entries[0].reason == .cutAtCap)
        #expect(aligned.totalSamples == 1_278_848)
    }
}
