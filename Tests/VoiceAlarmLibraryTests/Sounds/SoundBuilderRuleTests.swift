import Foundation
import TestSupport
import Testing
import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmStore

/// A renderer that writes a small text file naming the clips instead of audio, or fails as told.
private final class FakeRenderer: RingtoneRendering {
    var renders: [[UUID]] = []
    /// Clips that cannot be used (thrown as `UnusableClip`).
    var unusable: Set<UUID> = []
    /// A failure of the whole render.
    var failure: (any Error)?

    /// What the next renders report of their loudness.
    var shortfall: LoudnessShortfall?

    func render(_ clips: [LibraryClip], settings: RenderSettings, clipsDirectory: String, to output: String) throws -> LoudnessShortfall? {
        renders.append(clips.map(\.id))
        if let index = clips.firstIndex(where: { unusable.contains($0.id) }) {
            throw UnusableClip(index: index, reason: AudioError.corrupt(path: clips[index].fileName, atSeconds: 1, reason: "bad frame"))
        }
        if let failure { throw failure }
        try Data("voice of \(clips.map(\.idString))".utf8).write(to: URL(fileURLWithPath: output))
        return shortfall
    }
}

/// A checker that passes every present file except those it is told fail, and counts its questions.
private final class FakeChecker: SoundChecking {
    var asked: [String] = []
    var failing: Set<String> = []

    func problem(with path: String) -> SoundProblem? {
        asked.append(path)
        guard FileManager.default.fileExists(atPath: path) else { return .missing }
        return failing.contains(path) ? .failsCheck("decodes to 31.00 s") : nil
    }
}

/// A real store in a temporary folder, clips with placeholder recordings, fakes for audio.
private final class Rules {
    let dir = TemporaryDirectory("rules")
    let store: LibraryStore
    let sounds: SoundsDirectory
    let renderer = FakeRenderer()
    let checker = FakeChecker()
    let builder: SoundBuilder
    private let collected = Warnings()
    var warnings: [ServiceWarning] { collected.lines }

    init() throws {
        store = try LibraryStore(dataDirectory: dir.path)
        sounds = try SoundsDirectory(path: dir.file("Sounds"))
        let collected = self.collected
        builder = SoundBuilder(store: store, sounds: sounds, renderer: renderer, checker: checker, warn: { collected.lines.append($0) })
    }

    /// A clip record whose stored recording is a placeholder file.
    func clip(_ seconds: Double = 2) throws -> LibraryClip {
        let id = UUID()
        let clip = LibraryClip(
            id: id, title: "clip \(id.uuidString.prefix(4))", fileName: "\(id.uuidString.lowercased()).flac",
            frames: Int(seconds * 44_100), trimmedStart: 0, trimmedLength: Int(seconds * 44_100),
            sampleRate: 44_100, contentHash: id.uuidString)
        try store.insertClip(clip)
        _ = FileManager.default.createFile(atPath: "\(store.clipsDirectory)/\(clip.fileName)", contents: Data("flac".utf8))
        return clip
    }

    /// An alarm on a new playlist of `clips`.
    func alarm(_ clips: [LibraryClip], voice: Bool = true) throws -> UUID {
        let name = "p-\(UUID().uuidString.prefix(6))"
        try store.createPlaylist(name)
        try store.setClips(clips.map(\.id), of: .playlist(name))
        let alarm = Alarm(target: .playlist(name), time: AlarmTime(hour: 7, minute: 0), days: .everyDay, voice: voice)
        try store.insertAlarm(alarm)
        return alarm.id
    }

    func build(_ id: UUID) throws -> SoundBuilder.Outcome {
        builder.build(try #require(try store.alarm(id)), settings: RenderSettings())
    }

    func stored(_ id: UUID) throws -> StoredAlarm { try #require(try store.alarm(id)) }
    func voiceFile(_ id: UUID) -> String { sounds.path(of: "\(id.uuidString.lowercased()).m4a") }
}

@Suite("The sound builder's rules, with a fake renderer and checker")
struct SoundBuilderRuleTests {
    @Test("A first build writes the voice file and records its identity and stamp")
    func firstBuild() throws {
        let r = try Rules()
        let id = try r.alarm([try r.clip(), try r.clip()])
        #expect(try r.build(id) == .built(fileName: "\(id.uuidString.lowercased()).m4a", shortfall: nil))
        let stored = try r.stored(id)
        #expect(stored.soundFile == "\(id.uuidString.lowercased()).m4a" && stored.soundIdentity != nil && stored.soundStamp != nil)
        #expect(FileManager.default.fileExists(atPath: r.voiceFile(id)))
        #expect(r.builder.resolve(stored) == .voice(fileName: stored.soundFile!))
    }

    @Test("A ringtone left under its loudness target is built, kept, and said: typed in the outcome, a warning naming the alarm")
    func shortfall() throws {
        let r = try Rules()
        let id = try r.alarm([try r.clip()])
        let quiet = LoudnessShortfall(by: 6.2, target: -16, reason: .gainCap)
        r.renderer.shortfall = quiet
        #expect(try r.build(id) == .built(fileName: "\(id.uuidString.lowercased()).m4a", shortfall: quiet))
        #expect(r.builder.resolve(try r.stored(id)) == .voice(fileName: "\(id.uuidString.lowercased()).m4a"), "a quiet voice still rings")
        #expect(r.warnings.contains(.ringtoneQuiet(alarm: id, shortfall: quiet)))
        #expect(try r.build(id) == .unchanged, "an unchanged ringtone is not built again, so not reported again")
    }

    @Test("Identity unchanged: untouched — no render, same file, and no decoding while its stamp holds")
    func unchanged() throws {
        let r = try Rules()
        let id = try r.alarm([try r.clip()])
        _ = try r.build(id)
        let inode = try FileManager.default.attributesOfItem(atPath: r.voiceFile(id))[.systemFileNumber] as? Int
        r.checker.asked = []
        #expect(try r.build(id) == .unchanged)
        #expect(r.renderer.renders.count == 1)
        #expect(try FileManager.default.attributesOfItem(atPath: r.voiceFile(id))[.systemFileNumber] as? Int == inode)
        #expect(r.checker.asked.isEmpty, "a file whose stamp matches is not checked again")
        for _ in 0..<10 { _ = r.builder.resolve(try r.stored(id)) }
        #expect(r.checker.asked.isEmpty)
    }

    @Test("A voice file changed behind the library's back is checked again, and rebuilt when it fails")
    func changedFile() throws {
        let r = try Rules()
        let id = try r.alarm([try r.clip()])
        _ = try r.build(id)
        try Data("something else entirely".utf8).write(to: URL(fileURLWithPath: r.voiceFile(id)))
        r.checker.failing = [r.voiceFile(id)]
        #expect(r.builder.resolve(try r.stored(id)).reason?.contains("fails the check") == true)
        #expect(r.checker.asked == [r.voiceFile(id)])
        #expect(try r.build(id) == .built(fileName: "\(id.uuidString.lowercased()).m4a", shortfall: nil))
        #expect(r.renderer.renders.count == 2)
    }

    @Test("An unusable clip is left out with a warning; with none left, the default tone")
    func unusableClip() throws {
        let r = try Rules()
        let bad = try r.clip(), good = try r.clip()
        let id = try r.alarm([bad, good, bad])
        r.renderer.unusable = [bad.id]
        #expect(try r.build(id) == .built(fileName: "\(id.uuidString.lowercased()).m4a", shortfall: nil))
        #expect(r.renderer.renders.last == [good.id], "every copy of the bad clip is left out")
        #expect(r.warnings.contains { if case .clipUnusable(bad.id, _, _, _) = $0 { true } else { false } })

        r.renderer.unusable = [bad.id, good.id]
        try r.store.setClips([bad.id, good.id, good.id], of: r.stored(id).alarm.target)
        #expect(try r.build(id) == .defaultTone(.noUsableRecording))
        #expect(!FileManager.default.fileExists(atPath: r.voiceFile(id)))
        #expect(try r.stored(id).soundReason == "no usable recording")
    }

    @Test("A clip whose recording is missing is left out with a warning")
    func missingRecording() throws {
        let r = try Rules()
        let gone = try r.clip(), kept = try r.clip()
        let id = try r.alarm([gone, kept])
        try FileManager.default.removeItem(atPath: "\(r.store.clipsDirectory)/\(gone.fileName)")
        _ = try r.build(id)
        #expect(r.renderer.renders == [[kept.id]])
        #expect(r.warnings.contains { if case .clipMissing(gone.id, _, _) = $0 { true } else { false } })
    }

    @Test("A failed render: the default tone with the reason, and the old voice file deleted")
    func renderFails() throws {
        let r = try Rules()
        let clip = try r.clip()
        let id = try r.alarm([clip])
        _ = try r.build(id)
        r.renderer.failure = AudioError.silent(path: r.voiceFile(id), detail: "the ringtone would measure -70.0 LUFS, peak -80.0 dBFS")
        try r.store.setClips([clip.id, clip.id], of: r.stored(id).alarm.target)  // a new identity: a rebuild is due
        let outcome = try r.build(id)
        guard case .defaultTone(let reason) = outcome else { Issue.record("got \(outcome)"); return }
        #expect(reason.isFailure)
        #expect(reason.description.hasPrefix("rebuild failed"))
        #expect(!FileManager.default.fileExists(atPath: r.voiceFile(id)))
        let stored = try r.stored(id)
        #expect(stored.soundFile == nil && stored.soundReason?.hasPrefix("rebuild failed") == true)
        #expect(r.builder.resolve(stored).soundName == "default")
    }

    @Test(
        "Voice off: the file deleted and the default tone; no recording: the default tone, not a failure",
        arguments: [false, true])
    func choicesAreNotFailures(_ voiceOff: Bool) throws {
        let r = try Rules()
        let id = voiceOff ? try r.alarm([try r.clip()], voice: true) : try r.alarm([])
        if voiceOff {
            _ = try r.build(id)
            try r.store.setVoice(false, for: id)
        }
        let outcome = try r.build(id)
        #expect(outcome == .defaultTone(voiceOff ? .voiceOff : .noRecording))
        if case .defaultTone(let reason) = outcome { #expect(!reason.isFailure) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: r.sounds.path).isEmpty)
        #expect(r.builder.resolve(try r.stored(id)) == (voiceOff ? .voiceOff : .noRecording))
    }

    @Test("A voice file that is gone resolves to the default tone, saying so")
    func goneFile() throws {
        let r = try Rules()
        let id = try r.alarm([try r.clip()])
        _ = try r.build(id)
        try FileManager.default.removeItem(atPath: r.voiceFile(id))
        #expect(r.builder.resolve(try r.stored(id)).reason?.contains("is missing") == true)
    }

    @Test("A rebuild the machine stops keeps the file that still matches the recordings, and owes the rebuild")
    func machineStopsRebuild() throws {
        let r = try Rules()
        let id = try r.alarm([try r.clip()])
        _ = try r.build(id)
        let before = try Data(contentsOf: URL(fileURLWithPath: r.voiceFile(id)))
        r.renderer.failure = AudioError.cannotWrite(path: r.voiceFile(id), reason: "No space left on device")
        // Only a setting changed: the recordings are the same.
        let outcome = r.builder.build(try r.stored(id), settings: RenderSettings(gap: 0.5))
        guard case .deferred(let reason) = outcome else { Issue.record("got \(outcome)"); return }
        #expect(reason.contains("No space left on device"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: r.voiceFile(id))) == before)
        let stored = try r.stored(id)
        #expect(stored.rebuildPending?.contains("No space") == true)
        #expect(r.builder.resolve(stored) == .voice(fileName: "\(id.uuidString.lowercased()).m4a"))
        #expect(r.warnings.contains { if case .rebuildDeferred(id, _, "\(id.uuidString.lowercased()).m4a") = $0 { true } else { false } })
    }

    @Test("A rebuild the machine stops after the recordings changed: the old file is the wrong sound and goes")
    func machineStopsRebuildOfNewRecordings() throws {
        let r = try Rules()
        let first = try r.clip()
        let id = try r.alarm([first])
        _ = try r.build(id)
        try r.store.setClips([first.id, try r.clip().id], of: r.stored(id).alarm.target)
        r.renderer.failure = AudioError.cannotWrite(path: r.voiceFile(id), reason: "No space left on device")
        #expect(try r.build(id) == .defaultTone(.buildFailed("\(r.renderer.failure!)")))
        #expect(!FileManager.default.fileExists(atPath: r.voiceFile(id)))
    }
}
