import Foundation
import Testing
import VoiceAlarmCore

private func parse(_ json: String, base: RenderSettings = RenderSettings()) throws -> BatchManifest {
    try BatchManifest(data: Data(json.utf8), folder: "/m", base: base)
}

@Suite("Batch manifests")
struct BatchManifestTests {
    @Test("Settings: ringtone > manifest > command line > default; paths relative to the manifest")
    func precedence() throws {
        let manifest = try parse(
            """
            {"format": "caf", "gap": 0.5, "ringtones": [
              {"id": "a", "clips": ["x.wav", "/abs/y.mp3"]},
              {"id": "b", "clips": ["x.wav"], "gap": 0, "format": "mp3", "trimSilence": false, "targetLufs": -20, "cap": 20},
              {"id": "c", "clips": ["x.wav"], "codec": "ima4"}
            ]}
            """, base: RenderSettings(gap: 0.1, normalize: false))
        let a = manifest.items[0], b = manifest.items[1], c = manifest.items[2]
        #expect(a.clips == ["/m/x.wav", "/abs/y.mp3"])
        #expect(a.settings.format == .caf && a.settings.codec == .pcm16 && a.settings.gap == 0.5 && !a.settings.normalize)
        #expect(b.settings.format == .mp3 && b.settings.codec == .mp3 && b.settings.gap == 0 && !b.settings.trimSilence)
        #expect(b.settings.targetLUFS == -20 && b.settings.cap == 20)
        #expect(c.settings.codec == .ima4)
        #expect(manifest.items.allSatisfy { $0.problem == nil })
    }

    @Test("A codec the format cannot carry gives way to the format's default, as manifests always had it")
    func codecFallback() throws {
        let manifest = try parse(
            """
            {"codec": "ima4", "ringtones": [
              {"id": "a", "clips": ["x.wav"]},
              {"id": "b", "clips": ["x.wav"], "format": "caf"},
              {"id": "c", "clips": ["x.wav"], "format": "aiff", "codec": "ima4"}
            ]}
            """, base: RenderSettings())
        #expect(manifest.items.map(\.settings.codec) == [.aac, .pcm16, .ima4])
        #expect(manifest.items.allSatisfy { $0.problem == nil })
    }

    @Test(
        "A ringtone that is wrong fails alone, and says why",
        arguments: [
            (#"{"id": "a/b", "clips": ["x.wav"]}"#, "must not contain '/'"),
            (#"{"id": "..", "clips": ["x.wav"]}"#, "must not contain '/', '..'"),
            (#"{"id": "x\u0000y", "clips": ["x.wav"]}"#, "NUL"),
            (#"{"id": ".hidden", "clips": ["x.wav"]}"#, "start with '.'"),
            (#"{"clips": ["x.wav"]}"#, "needs an \"id\""),
            (#"{"id": 7, "clips": ["x.wav"]}"#, "needs an \"id\""),
            (#"{"id": "a"}"#, "\"clips\" must be a non-empty list"),
            (#"{"id": "a", "clips": []}"#, "\"clips\" must be a non-empty list"),
            (#"{"id": "a", "clips": [3]}"#, "every clip must be a path"),
            (#"{"id": "a", "clips": ["x.wav"], "colour": "red"}"#, "unknown key \"colour\""),
            (#"{"id": "a", "clips": ["x.wav"], "cap": "20"}"#, "\"cap\" must be a number"),
            (#"{"id": "a", "clips": ["x.wav"], "cap": 30}"#, "cap must be more than 0 and less than 30"),
            (#"{"id": "a", "clips": ["x.wav"], "trimSilence": 1}"#, "\"trimSilence\" must be true or false"),
            (#"{"id": "a", "clips": ["x.wav"], "format": "ogg"}"#, "\"format\" must be one of"),
            (#""just a string""#, "is not an object"),
        ])
    func badItems(_ item: String, _ reason: String) throws {
        let manifest = try parse(#"{"ringtones": [\#(item), {"id": "fine", "clips": ["x.wav"]}]}"#)
        #expect(manifest.items[0].problem?.contains(reason) == true, "\(manifest.items[0].problem ?? "no problem")")
        #expect(manifest.items[1].problem == nil)
    }

    @Test("Duplicate ids fail both")
    func duplicates() throws {
        let manifest = try parse(#"{"ringtones": [{"id": "a", "clips": ["x"]}, {"id": "a", "clips": ["y"]}, {"id": "b", "clips": ["z"]}]}"#)
        #expect(manifest.items.map { $0.problem != nil } == [true, true, false])
    }

    @Test(
        "A manifest that cannot be read at all fails whole",
        arguments: ["not json", "[1, 2]", #"{"format": "m4a"}"#, #"{"ringtones": 3}"#, #"{"ringtones": [], "cap": 31}"#])
    func unreadable(_ text: String) {
        #expect(throws: BatchManifestError.self) { try parse(text) }
    }
}
