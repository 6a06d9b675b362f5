import Foundation
import Testing
import VoiceAlarmCore

private func clip(_ seconds: Double, _ title: String) -> LibraryClip {
    let frames = Int(seconds * 44_100)
    return LibraryClip(
        id: UUID(), title: title, fileName: "\(title).flac", frames: frames, trimmedStart: 0,
        trimmedLength: frames, sampleRate: 44_100, contentHash: title)
}

@Suite("What arranging a target says about its ringtone")
struct CapNoteTests {
    /// Clip lengths, and what the note says: nil, or the seconds used, the crossing clip's title
    /// and how many clips are left out.
    static let cases: [([Double], CapNote?)] = [
        ([10, 10, 5], nil),  // all plays, 25 s and gaps under the cap
        ([40], nil),  // one long first clip: the cap of it, as documented
        ([3.7, 35], .init(usedSeconds: 3.7, crossing: "c1", seconds: 35, leftOut: 1)),
        ([3.7, 35, 2], .init(usedSeconds: 3.7, crossing: "c1", seconds: 35, leftOut: 2)),
        ([2], .init(usedSeconds: 2, crossing: nil, seconds: 0, leftOut: 0)),  // very short
        ([3], nil),  // 3 s is not under 3 s
        ([35, 4], .init(usedSeconds: 29, crossing: nil, seconds: 0, cut: "c0", cutSeconds: 35, leftOut: 1)),  // the greeting never plays
        ([35, 4, 2], .init(usedSeconds: 29, crossing: nil, seconds: 0, cut: "c0", cutSeconds: 35, leftOut: 2)),
    ]

    @Test("Clips left out at the cap, or a very short ringtone, are noted; a whole target is not", arguments: cases)
    func notes(_ lengths: [Double], _ expected: CapNote?) {
        let clips = lengths.enumerated().map { clip($0.element, "c\($0.offset)") }
        let note = CapNote(LibraryPlan(clips: clips, settings: RenderSettings(gap: 0, format: .wav)))
        #expect(
            note.map { (($0.usedSeconds * 10).rounded() / 10, $0.crossing?.title, $0.cutFirst?.title, $0.leftOut) }.map { "\($0)" }
                == expected.map { ($0.usedSeconds, $0.crossing?.title, $0.cutFirst?.title, $0.leftOut) }.map { "\($0)" })
        if let crossing = note?.crossing, let want = expected?.crossing { #expect(abs(crossing.seconds - want.seconds) < 0.01) }
        if let cut = note?.cutFirst, let want = expected?.cutFirst { #expect(abs(cut.seconds - want.seconds) < 0.01) }
        #expect(note?.cap ?? 29 == 29)
    }

    @Test("An empty target has nothing to note")
    func empty() {
        #expect(CapNote(LibraryPlan(clips: [], settings: RenderSettings())) == nil)
    }
}

private extension CapNote {
    /// An expectation: seconds used, the crossing clip (title and length) and how many are left out.
    init(usedSeconds: Double, crossing: String?, seconds: Double, cut: String? = nil, cutSeconds: Double = 0, leftOut: Int) {
        self.init(
            usedSeconds: usedSeconds, cap: 29, crossing: crossing.map { Crossing(title: $0, seconds: seconds) },
            cutFirst: cut.map { Crossing(title: $0, seconds: cutSeconds) }, leftOut: leftOut)
    }
}
