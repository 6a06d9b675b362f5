import Foundation
import Testing
import VoiceAlarmCore

private func clip(_ seconds: Double, hash: String = "h", lead: Double = 0) -> LibraryClip {
    let frames = Int(seconds * 44_100)
    return LibraryClip(
        id: UUID(), title: "t", fileName: "f.flac", frames: frames + Int(lead * 44_100),
        trimmedStart: Int(lead * 44_100), trimmedLength: frames, sampleRate: 44_100, contentHash: hash)
}

@Suite("Planning from the library's stored lengths")
struct LibraryPlanTests {
    @Test("The cap applies to the trimmed lengths stored at import")
    func capFromStoredLengths() {
        let plan = LibraryPlan(clips: [clip(10, lead: 2), clip(10, lead: 2), clip(9.1)], settings: RenderSettings(gap: 0, format: .wav))
        #expect(plan.composition.usedEntries.count == 2)
        let untrimmed = LibraryPlan(clips: [clip(10, lead: 2), clip(10, lead: 2)], settings: RenderSettings(gap: 0, trimSilence: false, format: .wav))
        #expect(untrimmed.composition.totalSamples == 24 * 44_100)
    }

    @Test("The identity changes with a clip's audio, the order, or a setting, and only then")
    func identity() {
        let a = clip(3, hash: "aaa"), b = clip(4, hash: "bbb")
        let base = LibraryPlan(clips: [a, b], settings: RenderSettings())
        #expect(base.identity == LibraryPlan(clips: [a, b], settings: RenderSettings()).identity)
        var changed = a
        changed.contentHash = "ccc"
        #expect(base.identity != LibraryPlan(clips: [changed, b], settings: RenderSettings()).identity)
        #expect(base.identity != LibraryPlan(clips: [b, a], settings: RenderSettings()).identity)
        #expect(base.identity != LibraryPlan(clips: [a, b], settings: RenderSettings(format: .caf)).identity)
        #expect(base.identity != LibraryPlan(clips: [a, b], settings: RenderSettings(gap: 0.5)).identity)
        // A clip that is not used does not change the ringtone.
        let long = clip(28, hash: "long")
        #expect(
            LibraryPlan(clips: [long, a], settings: RenderSettings()).identity
                == LibraryPlan(clips: [long, b], settings: RenderSettings()).identity)
    }

    @Test("A change touches exactly the alarms whose target it concerns")
    func affected() {
        let clipA = UUID(), clipB = UUID()
        let morning = Alarm(target: .playlist("morning"), time: AlarmTime(hour: 7, minute: 0), days: .everyDay)
        let evening = Alarm(target: .playlist("evening"), time: AlarmTime(hour: 20, minute: 0), days: .everyDay)
        let manifesto = Alarm(target: .manifesto, time: AlarmTime(hour: 8, minute: 0), days: .everyDay)
        let membership: [Target: [UUID]] = [.playlist("morning"): [clipA, clipB], .playlist("evening"): [clipB], .manifesto: [clipA]]
        let all = [morning, evening, manifesto]
        #expect(LibraryChange.clip(clipA).affectedAlarms(all, targetClips: membership) == [morning, manifesto])
        #expect(LibraryChange.clip(clipB).affectedAlarms(all, targetClips: membership) == [morning, evening])
        #expect(LibraryChange.target(.playlist("evening")).affectedAlarms(all, targetClips: membership) == [evening])
        #expect(LibraryChange.settings.affectedAlarms(all, targetClips: membership) == all)
    }

    @Test(
        "The identity text is pinned: it changes only with the processing (3 now), and the identities under processing 2 and 1 are the earlier versions' texts")
    func identityText() {
        let plan = LibraryPlan(clips: [clip(3, hash: "aaa", lead: 1), clip(4, hash: "bbb")], settings: RenderSettings())
        let clips = "|aaa@44100+132300@0|bbb@0+176400@145530|total=322560"
        #expect(plan.identity == "v1|p3|m4a|aac|44100|cap=1278900|gap=13230|trim=true|norm=true|lufs=-16.0" + clips)
        #expect(plan.identity(processing: 2) == "v1|p2|m4a|aac|44100|cap=1278900|gap=13230|trim=true|norm=true|lufs=-16.0" + clips)
        #expect(plan.identity(processing: 1) == "v1|m4a|aac|44100|cap=1278900|gap=13230|trim=true|norm=true|lufs=-16.0" + clips)
    }
}
