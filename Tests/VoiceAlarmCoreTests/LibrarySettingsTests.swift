import Foundation
import Testing
import VoiceAlarmCore

@Suite struct LibrarySettingsTests {
    @Test("Typed values read and write the text the table keeps, under the keys it has always used")
    func typedValues() {
        var settings = LibrarySettings()
        settings.device = "plughw:1,0"
        settings.rampSeconds = 20
        settings.soundsDirectory = "/music/alarms"
        settings.scheduler = .systemd
        settings.setRender(.trimSilence, to: "off")
        #expect(settings[stored: .device] == "plughw:1,0")
        #expect(settings[stored: .ramp] == "20.0")
        #expect(settings[stored: .soundsDirectory] == "/music/alarms")
        #expect(settings[stored: .scheduler] == "systemd")
        #expect(settings[stored: .trimSilence] == "off")
        #expect(settings.storedKeys.map(\.rawValue) == ["trim-silence", "device", "ramp", "sounds-dir", "scheduler"])
        settings.device = nil
        #expect(settings[stored: .device] == nil, "nil forgets the setting")
    }

    @Test(
        "Text that does not parse is kept as written, and reads as no value",
        arguments: [
            (LibrarySettings.Key.ramp, "soon"), (.scheduler, "cron"),
        ])
    func unreadable(_ key: LibrarySettings.Key, _ text: String) {
        var settings = LibrarySettings()
        settings[stored: key] = text
        #expect(settings.rampSeconds == nil && settings.scheduler == nil)
        #expect(settings[stored: key] == text)
    }

    @Test("A backup's settings are the same JSON object of keys and text; keys it does not know are left out")
    func backupShape() throws {
        let json = #"{"device":"pulse","gap":"0.50","ramp":"nan","sounds-dir":"\/s","unknown":"x"}"#
        let settings = try JSONDecoder().decode(LibrarySettings.self, from: Data(json.utf8))
        #expect(settings.device == "pulse" && settings[stored: .gap] == "0.50" && settings.soundsDirectory == "/s")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(settings), as: UTF8.self) == #"{"device":"pulse","gap":"0.50","ramp":"nan","sounds-dir":"\/s"}"#)
    }

    @Test("Render settings go through the one validator, naming the stored key and text")
    func renderSettings() throws {
        var settings = LibrarySettings()
        settings.setRender(.format, to: "caf")
        settings.setRender(.codec, to: "ima4")
        #expect(try settings.renderSettings().codec == .ima4)
        settings.setRender(.gap, to: "5")
        #expect(throws: SettingsError(key: "gap", value: "5", reason: "must be 0 to 1 (seconds)")) { try settings.renderSettings() }
    }
}
