import Foundation
import TestSupport
import Testing
import VoiceAlarm
import VoiceAlarmCore

/// Valid manifests to start from: every key a manifest may hold, at the manifest level and per ringtone.
private let seeds = [
    #"{"format": "m4a", "gap": 0.5, "ringtones": [{"id": "morning-01", "clips": ["clips/a.mp3", "clips/b.wav"]}, {"id": "evening-01", "clips": ["/abs/c.flac"], "format": "caf", "trimSilence": false}]}"#,
    #"{"format": "caf", "codec": "ima4", "cap": 20, "normalize": false, "targetLufs": -18, "ringtones": [{"id": "a", "clips": ["x.wav"], "cap": 0.5, "codec": "pcm"}, {"id": "b", "clips": ["y.wav", "z.wav"], "format": "mp3", "gap": 0}]}"#,
    #"{"ringtones": [{"id": "only", "clips": ["one.wav"], "targetLufs": -6, "gap": 1, "cap": 29.99}]}"#,
]

/// Values a mutation puts where a value was: wrong types, extremes, boundaries, deep nesting.
private let hostileValues: [String] = [
    "null", "true", "false", "0", "-0", "1", "-1", "0.0001", "1e-320", "29.999999999", "30", "1e308", "-1e308", "1e999",
    "-1e999", "9223372036854775807", "18446744073709551616", "\"\"", "\"m4a\"", "\"caf\"", "\"ima4\"", "\"pcm\"", "\"ogg2\"",
    "\"..\"", "\"../x\"", "\".hidden\"", "\"a/b\"", "\"\\u0000\"", "\"\\n\"", "\"\\ud800\"", "[]", "{}", "[\"x.wav\"]", "[1, 2]",
    "[\"\"]", "{\"id\": \"x\"}", String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
    String(repeating: "{\"a\":", count: 300) + "1" + String(repeating: "}", count: 300),
    "\"" + String(repeating: "x", count: 100_000) + "\"",
]

/// Tokens spliced into the text: JSON's punctuation and a few keywords, whole or half.
private let tokens = [
    "{", "}", "[", "]", ",", ":", "\"", "\\", "\"ringtones\"", "\"id\"", "\"clips\"", "\"cap\"", "\"format\"",
    "nul", "tru", "1e", "-", ".", "\u{0}", "\u{FEFF}", "\u{1F600}",
]

/// Mutates a manifest's text: structure-aware (a value replaced) or plain bytes (flipped, cut, spliced).
private func mutate(_ text: String, _ random: inout SeededGenerator) -> Data {
    var bytes = Array(text.utf8)
    for _ in 0..<Int.random(in: 1...3, using: &random) {
        guard !bytes.isEmpty else { bytes = Array("{}".utf8); continue }
        let at = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<6, using: &random) {
        case 0: bytes[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
        case 1: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...8, using: &random)))
        case 2: bytes.insert(contentsOf: Array(tokens.randomElement(using: &random)!.utf8), at: at)
        case 3:
            let end = min(bytes.count, at + Int.random(in: 1...16, using: &random))
            bytes.insert(contentsOf: bytes[at..<end], at: end)
        default:
            // A value (after a colon, up to the next comma or closing brace) replaced by a hostile one.
            guard let colon = bytes[at...].firstIndex(of: UInt8(ascii: ":")) else { continue }
            let end = bytes[(colon + 1)...].firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "}") } ?? bytes.count
            bytes.replaceSubrange((colon + 1)..<end, with: Array(hostileValues.randomElement(using: &random)!.utf8))
        }
    }
    return Data(bytes)
}

@Suite("Fuzz: mutated manifests and settings either parse or are refused with a typed error")
struct ManifestFuzzTests {
    @Test(
        "1,000 mutated manifests a seed through BatchManifest(data:folder:base:) (one seed; three in make test-full)", .timeLimit(.minutes(1)),
        arguments: TestScope.cases([1, 2, 3] as [UInt64], quick: [1]))
    func manifests(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var parsed = 0, refused = 0, slowest = 0.0
        for index in 0..<1_000 {
            let data = mutate(seeds[index % seeds.count], &random)
            let start = Date()
            do {
                let manifest = try BatchManifest(data: data, folder: "/m", base: RenderSettings())
                parsed += 1
                for item in manifest.items where item.problem == nil {
                    // What the manifest accepted must be buildable: settings valid, paths absolute, ids safe.
                    #expect(item.settings.problem == nil, "seed \(seed) case \(index): \(String(decoding: data, as: UTF8.self))")
                    #expect(!item.clips.isEmpty && item.clips.allSatisfy { $0.hasPrefix("/") })
                    #expect(!item.id.contains("/") && !item.id.hasPrefix(".") && !item.id.contains("\u{0}"))
                }
            } catch is BatchManifestError {
                refused += 1
            }
            slowest = max(slowest, Date().timeIntervalSince(start))
        }
        #expect(parsed > 0 && refused > 0, "the mutations reach both outcomes (\(parsed) parsed, \(refused) refused)")
        // A bound for hangs, not a benchmark: sanitizer builds on a busy machine are many times slower.
        #expect(slowest < 10, "one manifest took \(slowest) s")
    }

    @Test("3,000 mutated settings tables through LibrarySettings.renderSettings()", .timeLimit(.minutes(1)))
    func settings() throws {
        var random = SeededGenerator(seed: 42)
        let names = LibrarySettings.renderKeys.map(\.settingName) + ["cap", "sample-rate", "", "format\n", "FORMAT"]
        let texts = [
            "m4a", "caf", "wav", "aiff", "mp3", "ogg", "M4A", "pcm", "ima4", "aac", "", " ", "on", "off", "yes", "no",
            "true", "ON", "1", "0", "-0", "0.3", "1", "1.0000001", "-6", "-40", "-40.0000001", "-5.9", "nan", "NaN",
            "inf", "-inf", "1e308", "1e-320", "0x10", "29.99", "30", "0.001", "\u{0}", "-16\n", String(repeating: "9", count: 400),
        ]
        var accepted = 0, refused = 0
        for index in 0..<3_000 {
            var values = LibrarySettings()
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                let text =
                    Bool.random(using: &random)
                    ? texts.randomElement(using: &random)!
                    : String(Double.random(in: -100...100, using: &random))
                // Names the table does not know are left out, as when the store reads its rows.
                if let key = LibrarySettings.Key(rawValue: names.randomElement(using: &random)!) { values[stored: key] = text }
            }
            do {
                let settings = try values.renderSettings()
                #expect(settings.problem == nil, "case \(index): \(values)")
                accepted += 1
            } catch is SettingsError {
                refused += 1
            }
        }
        #expect(accepted > 0 && refused > 0, "\(accepted) accepted, \(refused) refused")
    }
}
