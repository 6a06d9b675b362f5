import Testing
import VoiceAlarmCore

private func report(_ duration: Double, _ clips: [(Bool, String?)], shortfall: LoudnessShortfall? = nil) -> RenderReport {
    RenderReport(
        output: "/o/r.m4a", format: "m4a", codec: "aac", sampleRate: 44_100, channels: 1, duration: duration, bytes: 1,
        loudness: .init(integrated: -16 - (shortfall?.by ?? 0), truePeak: -1.5, shortfall: shortfall),
        clips: clips.enumerated().map {
            .init(input: "/c/\($0.offset).wav", used: $0.element.0, start: nil, duration: 0, trimmed: $0.element.1 != nil, reason: $0.element.1)
        },
        passes: .init(measure: 1, encode: 1))
}

@Suite("Warnings for ringtones that are not what their playlist promised")
struct RingtoneWarningTests {
    @Test(
        "When a ringtone gets a warning",
        arguments: [
            (0.95, [(true, nil), (false, "crosses cap")], "1 of 2 clips left out: 1.wav crosses the 29.0 s cap; the ringtone is 0.95 s"),
            (20.0, [(true, nil), (false, "crosses cap"), (false, "after a clip that crossed the cap")], "2 of 3 clips left out: 1.wav crosses"),
            (2.5, [(true, nil)], "the ringtone is only 2.50 s long (under 3 s)"),
            (2.5, [(true, "silence trimmed (4.00 s)")], "the ringtone is only 2.50 s long"),
            (29.0, [(true, "cut at cap")], nil),
            (28.9, [(true, nil), (true, "end shortened to fit the encoder's frame at the cap")], nil),
            (3.0, [(true, nil)], nil),
        ] as [(Double, [(Bool, String?)], String?)])
    func warns(_ duration: Double, _ clips: [(Bool, String?)], _ expected: String?) {
        let text = RingtoneWarning.text(for: report(duration, clips), cap: 29)
        if let expected { #expect(text?.hasPrefix(expected) == true, "\(text ?? "nil")") } else { #expect(text == nil) }
    }

    @Test("A loudness shortfall is a warning of its own, beside the others", arguments: LoudnessShortfall.Reason.allCases)
    func shortfall(_ reason: LoudnessShortfall.Reason) {
        let short = LoudnessShortfall(by: 1.26, target: -16, reason: reason)
        let alone = RingtoneWarning.text(for: report(20, [(true, nil)], shortfall: short), cap: 29)
        #expect(alone == "loudness 1.3 LU under the -16 LUFS target: \(short.detail)")
        let both = RingtoneWarning.text(for: report(2.5, [(true, nil)], shortfall: short), cap: 29)
        #expect(both == "the ringtone is only 2.50 s long (under 3 s); loudness 1.3 LU under the -16 LUFS target: \(short.detail)")
    }
}
