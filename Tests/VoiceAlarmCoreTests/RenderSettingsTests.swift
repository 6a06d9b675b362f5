import Testing
import VoiceAlarmCore

@Suite("Render settings")
struct RenderSettingsTests {
    @Test("The cap must be more than 0 and less than 30 seconds", arguments: [
        (29.0, true), (29.99, true), (0.5, true), (30.0, false), (31.0, false), (0.0, false), (-1.0, false),
    ])
    func capRange(_ cap: Double, _ valid: Bool) {
        #expect((RenderSettings(cap: cap).problem == nil) == valid)
    }

    @Test("The gap is 0 to 1 second", arguments: [(0.0, true), (1.0, true), (1.01, false), (-0.1, false)])
    func gapRange(_ gap: Double, _ valid: Bool) {
        #expect((RenderSettings(gap: gap).problem == nil) == valid)
    }

    @Test("Each format carries only its own codecs")
    func codecsPerFormat() {
        #expect(RenderSettings(format: .caf, codec: .ima4).problem == nil)
        #expect(RenderSettings(format: .aiff, codec: .ima4).problem == nil)
        #expect(RenderSettings(format: .m4a, codec: .pcm16).problem != nil)
        #expect(RenderSettings(format: .wav, codec: .ima4).problem != nil)
        #expect(RenderSettings(format: .caf).codec == .pcm16)
        #expect(RenderSettings().format == .m4a && RenderSettings().codec == .aac)
    }

    @Test("File extensions name formats; aif counts as aiff")
    func extensions() {
        #expect(RingtoneFormat(fileExtension: "M4A") == .m4a)
        #expect(RingtoneFormat(fileExtension: "aif") == .aiff)
        #expect(RingtoneFormat(fileExtension: "ogg") == nil)
        #expect(RingtoneFormat.aiff.ffmpegCodecName(.pcm16) == "pcm_s16be")
        #expect(RingtoneFormat.caf.ffmpegCodecName(.ima4) == "adpcm_ima_qt")
    }
}
