import Testing
import VoiceAlarmCore

@Suite("Render settings")
struct RenderSettingsTests {
    @Test(
        "The cap must be more than 0 and less than 30 seconds",
        arguments: [
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

    @Test(
        "One vocabulary: each key's spelling for the settings command and for a manifest",
        arguments: [
            (RenderSettingKey.format, "format", "format"), (.codec, "codec", "codec"), (.gap, "gap", "gap"),
            (.trimSilence, "trim-silence", "trimSilence"), (.normalize, "normalize", "normalize"),
            (.targetLUFS, "target-lufs", "targetLufs"), (.cap, "cap", "cap"),
        ])
    func spellings(_ key: RenderSettingKey, _ setting: String, _ manifest: String) {
        #expect(key.settingName == setting)
        #expect(key.manifestName == manifest)
        #expect(RenderSettingKey(settingName: setting) == (key == .cap ? nil : key), "the library does not remember the cap")
    }

    @Test(
        "The one validator: a new format brings its default codec; a codec it cannot carry is refused",
        arguments: [
            ([(RenderSettingKey.format, RenderSettingKey.Value.format(.caf))], RingtoneFormat.caf, RingtoneCodec.pcm16, nil as RenderSettingKey?),
            ([(.format, .format(.caf)), (.codec, .codec(.ima4))], .caf, .ima4, nil),
            ([(.format, .format(.caf)), (.codec, .codec(.ima4)), (.format, .format(.aiff))], .aiff, .pcm16, nil),
            ([(.format, .format(.caf)), (.codec, .codec(.ima4)), (.format, .format(.caf))], .caf, .ima4, nil),
            ([(.codec, .codec(.ima4))], .m4a, .aac, .codec),
            ([(.cap, .number(30))], .m4a, .aac, .cap),
            ([(.gap, .number(1.5))], .m4a, .aac, .gap),
            ([(.targetLUFS, .number(-3))], .m4a, .aac, .targetLUFS),
        ])
    func validator(
        _ steps: [(RenderSettingKey, RenderSettingKey.Value)], _ format: RingtoneFormat, _ codec: RingtoneCodec,
        _ refused: RenderSettingKey?
    ) {
        var settings = RenderSettings()
        var failure: RenderSettingError?
        for (key, value) in steps {
            do { try settings.set(key, value) } catch { failure = error }
        }
        #expect(failure?.key == refused)
        #expect(settings.format == format && settings.codec == codec, "a refused value leaves the settings as they were")
        #expect(settings.problem == nil)
    }

    @Test("The fingerprint is the settings' part of every stored ringtone identity, unchanged from before")
    func fingerprint() {
        #expect(RenderSettings().fingerprint == "m4a|aac|44100|cap=1278900|gap=13230|trim=true|norm=true|lufs=-16.0")
        #expect(RenderSettings(format: .caf, codec: .ima4).fingerprint != RenderSettings(format: .caf).fingerprint)
    }
}
