import Foundation
import TestSupport
import Testing
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmStore

private let seven = AlarmTime(hour: 7, minute: 0)

@Suite("The alarm library on the real SQLite and real audio")
struct AlarmServiceTests {
    @Test("The 29-second cap through the library: a long manifesto is trimmed, a playlist stops at the crossing clip")
    func capThroughLibrary() async throws {
        let f = try LibraryFixture()
        let manifesto = try f.service.clips.add(f.sample("manifesto.flac"), title: "Manifesto")
        _ = try f.service.playlists.setManifesto(manifesto.idString)
        let a = try f.service.alarms.add(on: .manifesto, at: seven, days: .everyDay)
        let path = try #require(try f.soundPath(a.status.alarm.id))
        let decoded = try await IndependentMeasure.decodedSamples(path)
        #expect(decoded.count <= 1_278_900 && decoded.count > 1_276_000, "\(decoded.count) samples")

        let clips = try await [10.0, 10.0, 9.1, 2.0].asyncMap { try await f.importTone($0) }
        _ = try f.service.settings.change(.gap, to: "0")
        _ = try f.service.settings.change(.format, to: "wav")
        try f.service.playlists.create("morning", clips: clips.map(\.idString))
        let b = try f.service.alarms.add(on: .playlist("morning"), at: AlarmTime(hour: 6, minute: 0), days: .everyDay)
        let playlistSound = try #require(try f.soundPath(b.status.alarm.id), "\(b.status.sound) — warnings: \(f.warnings)")
        #expect(playlistSound.hasSuffix(".wav"))
        // Two 10 s tones (trimmed by at most a few samples at their ends); the 9.1 s third crosses, the 2 s fourth is not used.
        let count = try await IndependentMeasure.decodedSamples(playlistSound).count
        #expect(abs(count - 20 * 44_100) < 200, "\(count) samples")
    }

    @Test("Alarms resolve to their voice file, named by the alarm's UUID, 0600 in a 0700 folder")
    func voiceFile() throws {
        let f = try LibraryFixture()
        let clip = try f.service.clips.add(f.sample("calm.wav"), title: "Calm")
        try f.service.playlists.create("morning", clips: [clip.idString])
        let added = try f.service.alarms.add(on: .playlist("morning"), at: seven, days: [.monday])
        let id = added.status.alarm.id
        #expect(added.status.sound == .voice(fileName: "\(id.uuidString.lowercased()).m4a"))
        #expect(added.isFirstForTarget)
        let attributes = try FileManager.default.attributesOfItem(atPath: try #require(try f.soundPath(id)))
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: f.service.sounds.path)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
        #expect(try f.scheduled(id)?.configuration.sound == .named("\(id.uuidString.lowercased()).m4a"))
        #expect(try f.scheduled(id)?.configuration.schedule == .weekly(seven, days: [.monday]))
        #expect(added.status.next == Date(timeIntervalSince1970: 1_796_022_000))  // date -u -d "2026-11-30 07:00" +%s
        let second = try f.service.alarms.add(on: .playlist("morning"), at: AlarmTime(hour: 7, minute: 5), days: [.monday])
        #expect(!second.isFirstForTarget)
    }

    @Test("The service refuses a label with control characters, whoever calls it, and keeps no alarm", arguments: ["two\nlines", "\u{1B}[2J", "bell\u{7}"])
    func badLabel(_ label: String) throws {
        let f = try LibraryFixture()
        #expect(throws: LibraryError.invalidLabel(.controlCharacters)) {
            try f.service.alarms.add(on: .manifesto, at: seven, days: .everyDay, label: label)
        }
        #expect(try f.service.alarms.statuses().isEmpty)
        #expect(try f.service.alarms.add(on: .manifesto, at: seven, days: .everyDay, label: "Work").status.alarm.label == "Work")
    }

    @Test("The switch: off deletes the voice file and uses the default tone; on builds it again")
    func voiceSwitch() throws {
        let f = try LibraryFixture()
        let clip = try f.service.clips.add(f.sample("ready.mp3"), title: "Ready")
        _ = try f.service.playlists.setManifesto(clip.idString)
        let id = try f.service.alarms.add(on: .manifesto, at: seven, days: .everyDay).status.alarm.id
        let file = try #require(try f.soundPath(id))
        #expect(FileManager.default.fileExists(atPath: file))

        let off = try f.service.alarms.setVoice(false, for: id.uuidString)
        #expect(off.sound == .voiceOff)
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(f.service.sounds.path == f.dir.file("Sounds"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.service.sounds.path).isEmpty)
        #expect(try f.scheduled(id)?.configuration.sound == .default)

        let on = try f.service.alarms.setVoice(true, for: String(id.uuidString.prefix(8)))
        #expect(on.sound == .voice(fileName: URL(fileURLWithPath: file).lastPathComponent))
        #expect(FileManager.default.fileExists(atPath: file))
        #expect(try f.scheduled(id)?.configuration.sound == .named(URL(fileURLWithPath: file).lastPathComponent))
    }

    @Test("Replacing a clip rebuilds exactly the alarms that use it; the others' files are untouched")
    func replaceRebuildsAffected() throws {
        let f = try LibraryFixture()
        let shared = try f.service.clips.add(f.sample("calm.wav"), title: "Calm")
        let other = try f.service.clips.add(f.sample("kind.ogg"), title: "Kind")
        try f.service.playlists.create("morning", clips: [shared.idString, other.idString])
        try f.service.playlists.create("evening", clips: [other.idString])
        _ = try f.service.playlists.setManifesto(shared.idString)
        let morning = try f.service.alarms.add(on: .playlist("morning"), at: seven, days: .everyDay).status.alarm.id
        let evening = try f.service.alarms.add(on: .playlist("evening"), at: AlarmTime(hour: 21, minute: 0), days: .everyDay).status.alarm.id
        let manifesto = try f.service.alarms.add(on: .manifesto, at: AlarmTime(hour: 8, minute: 0), days: [.saturday]).status.alarm.id
        let before = try [morning, evening, manifesto].map { try f.soundHash($0) }
        let eveningInode = try FileManager.default.attributesOfItem(atPath: try f.soundPath(evening)!)[.systemFileNumber] as? Int

        let (_, summary) = try f.service.clips.replace(shared.idString, with: f.sample("strong.flac"))
        #expect(Set(summary.rebuilt) == [morning, manifesto])
        let after = try [morning, evening, manifesto].map { try f.soundHash($0) }
        #expect(after[0] != before[0])
        #expect(after[1] == before[1])
        #expect(after[2] != before[2])
        let inode = try FileManager.default.attributesOfItem(atPath: try f.soundPath(evening)!)[.systemFileNumber] as? Int
        #expect(inode == eveningInode, "the unaffected alarm's file was not rewritten")
    }

    @Test("Generated audio arriving for a target with no recording yet turns the default tone into the voice")
    func recordingArrivesLater() throws {
        let f = try LibraryFixture()
        try f.service.playlists.create("onboarding")
        let added = try f.service.alarms.add(on: .playlist("onboarding"), at: seven, days: .everyDay)
        #expect(added.status.sound == .noRecording)
        #expect(try f.scheduled(added.status.alarm.id)?.configuration.sound == .default)
        let clip = try f.service.clips.add(f.sample("grateful.m4a"), title: "Grateful")
        let summary = try f.service.playlists.append(to: "onboarding", clips: [clip.idString])
        #expect(summary.rebuilt == [added.status.alarm.id])
        let status = try f.service.alarms.status(of: added.status.alarm.id)
        #expect(status.sound.soundName.hasSuffix(".m4a"))
        #expect(try f.scheduled(added.status.alarm.id)?.configuration.sound == .named(status.sound.soundName))
    }

    @Test("Every doubt about the voice file resolves to the default tone, with the reason")
    func fallbacks() async throws {
        let f = try LibraryFixture()
        let clip = try f.service.clips.add(f.sample("calm.wav"), title: "Calm")
        _ = try f.service.playlists.setManifesto(clip.idString)
        let id = try f.service.alarms.add(on: .manifesto, at: seven, days: .everyDay).status.alarm.id
        let file = try #require(try f.soundPath(id))
        let good = try Data(contentsOf: URL(fileURLWithPath: file))

        try FileManager.default.removeItem(atPath: file)
        #expect(try f.service.alarms.status(of: id).sound.reason?.contains("missing") == true)

        try Data("not audio at all".utf8).write(to: URL(fileURLWithPath: file))
        #expect(try f.service.alarms.status(of: id).sound.reason?.contains("cannot be used") == true)

        try await AudioFixtures.tone(file, seconds: 31, extra: ["-f", "ipod"])
        #expect(try f.service.alarms.status(of: id).sound.reason?.contains("shorter than 30 s") == true)

        try good.write(to: URL(fileURLWithPath: file))
        #expect(try f.service.alarms.status(of: id).sound == .voice(fileName: URL(fileURLWithPath: file).lastPathComponent))
        // A rebuild repairs a bad file: the identity matches but the file fails its check.
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: file))
        _ = try f.service.sync.refresh([id])
        #expect(try f.service.alarms.status(of: id).sound.soundName.hasSuffix(".m4a"))
    }

    @Test("A stored clip that no longer decodes is left out with a warning; with none left, the default tone")
    func unusableClip() async throws {
        let f = try LibraryFixture()
        let a = try f.service.clips.add(f.sample("calm.wav"), title: "Calm")
        let b = try f.service.clips.add(f.sample("ready.mp3"), title: "Ready")
        try f.service.playlists.create("morning", clips: [a.idString, b.idString])
        let id = try f.service.alarms.add(on: .playlist("morning"), at: seven, days: .everyDay).status.alarm.id
        let full = try await IndependentMeasure.decodedSamples(try f.soundPath(id)!).count

        try AudioFixtures.corruptedCopy(of: "\(f.service.store.clipsDirectory)/\(a.fileName)", to: "\(f.service.store.clipsDirectory)/\(a.fileName)")
        // An unchanged ringtone is not rebuilt (it was made from intact audio); a reorder forces it.
        #expect(try f.service.sync.refresh(affectedBy: .clip(a.id)).unchanged == [id])
        let summary = try f.service.playlists.move(in: "morning", from: 2, to: 1)
        #expect(summary.rebuilt == [id])
        #expect(f.warnings.contains { if case .clipUnusable(a.id, _, .playlist("morning"), _) = $0 { true } else { false } })
        let shorter = try await IndependentMeasure.decodedSamples(try f.soundPath(id)!).count
        #expect(shorter < full - 3 * 44_100, "only the second clip plays now")

        try FileManager.default.removeItem(atPath: "\(f.service.store.clipsDirectory)/\(b.fileName)")
        _ = try f.service.sync.refresh([id])
        #expect(try f.service.alarms.status(of: id).sound.soundName == "default")
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.service.sounds.path).isEmpty)
    }

    @Test("A rebuild the machine stops keeps the voice file that still matches the recordings, owes the rebuild, and catches up")
    func rebuildStoppedByTheMachine() throws {
        let f = try LibraryFixture()
        let clip = try f.service.clips.add(f.sample("calm.wav"), title: "Calm")
        _ = try f.service.playlists.setManifesto(clip.idString)
        let id = try f.service.alarms.add(on: .manifesto, at: seven, days: .everyDay).status.alarm.id
        let old = try #require(try f.soundPath(id))
        let oldHash = try f.soundHash(id)
        // The new file's name is taken by a folder: the machine, not the recording, stops the rebuild.
        let blocked = old.replacingOccurrences(of: ".m4a", with: ".caf")
        try FileManager.default.createDirectory(atPath: blocked, withIntermediateDirectories: false)
        let summary = try f.service.settings.change(.format, to: "caf")
        #expect(summary.deferred.map(\.0) == [id])
        #expect(summary.onDefault.isEmpty)
        #expect(try f.soundHash(id) == oldHash, "the m4a stays until the caf is written")
        #expect(try f.service.alarms.status(of: id).sound == .voice(fileName: URL(fileURLWithPath: old).lastPathComponent))
        #expect(try f.scheduled(id)?.configuration.sound == .named(URL(fileURLWithPath: old).lastPathComponent))
        #expect(try f.service.store.alarm(id)?.rebuildPending != nil)

        try FileManager.default.removeItem(atPath: blocked)
        _ = try f.service.sync.reconcile()
        #expect(try f.service.alarms.status(of: id).sound.soundName.hasSuffix(".caf"))
        #expect(!FileManager.default.fileExists(atPath: old))
        #expect(try f.service.store.alarm(id)?.rebuildPending == nil)
    }

    @Test("A settings change rebuilds every voice alarm and removes files whose extension changed")
    func settingsChange() async throws {
        let f = try LibraryFixture()
        let clip = try f.service.clips.add(f.sample("calm.wav"), title: "Calm")
        _ = try f.service.playlists.setManifesto(clip.idString)
        let a = try f.service.alarms.add(on: .manifesto, at: seven, days: .everyDay).status.alarm.id
        let b = try f.service.alarms.add(on: .manifesto, at: AlarmTime(hour: 8, minute: 0), days: .everyDay, voice: false).status.alarm.id
        #expect(try f.service.settings.change(.gap, to: "0.3").rebuilt.isEmpty, "the default gap: nothing changes")
        _ = try f.service.settings.change(.format, to: "caf")
        _ = try f.service.settings.change(.codec, to: "ima4")
        let names = try FileManager.default.contentsOfDirectory(atPath: f.service.sounds.path)
        #expect(names == ["\(a.uuidString.lowercased()).caf"])
        #expect(try await IndependentMeasure.probe(f.service.sounds.path(of: names[0])).codecName == "adpcm_ima_qt")
        #expect(try f.service.alarms.status(of: b).sound == .voiceOff)
    }

    @Test("Removing an alarm deletes its voice file and its schedule")
    func removeAlarm() throws {
        let f = try LibraryFixture()
        let clip = try f.service.clips.add(f.sample("calm.wav"), title: "Calm")
        _ = try f.service.playlists.setManifesto(clip.idString)
        let id = try f.service.alarms.add(on: .manifesto, at: seven, days: .everyDay).status.alarm.id
        _ = try f.service.alarms.remove([id.uuidString.lowercased()])
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.service.sounds.path).isEmpty)
        #expect(try f.scheduled(id) == nil)
        #expect(throws: LibraryError.unknownAlarm(id.uuidString.lowercased())) { try f.service.alarms.remove([id.uuidString.lowercased()]) }
    }

    @Test("Playlists: order, positions, duplicates, deletion, names")
    func playlists() async throws {
        let f = try LibraryFixture()
        let a = try await f.importTone(1, title: "a"), b = try await f.importTone(1, frequency: 550, title: "b")
        try f.service.playlists.create("morning", clips: [a.idString, b.idString, a.idString])
        _ = try f.service.playlists.move(in: "morning", from: 3, to: 1)
        _ = try f.service.playlists.remove(from: "morning", position: 2)
        #expect(try f.service.playlists.clips(of: .playlist("morning")).map(\.id) == [a.id, b.id])
        #expect(throws: LibraryError.positionOutOfRange(playlist: "morning", position: 3, count: 2)) {
            try f.service.playlists.remove(from: "morning", position: 3)
        }
        #expect(throws: LibraryError.playlistExists("MORNING")) { try f.service.playlists.create("MORNING") }
        #expect(throws: LibraryError.reservedName("Manifesto")) { try f.service.playlists.create("Manifesto") }
        #expect(throws: LibraryError.unknownPlaylist("nope")) { try f.service.playlists.append(to: "nope", clips: [a.idString]) }
        #expect(throws: LibraryError.shortID("abc")) { try f.service.clips.resolve("abc") }
        #expect(throws: LibraryError.unknownClip("00000000")) { try f.service.clips.resolve("00000000") }

        _ = try f.service.alarms.add(on: .playlist("morning"), at: seven, days: .everyDay)
        #expect(throws: LibraryError.playlistInUse("morning", alarms: 1)) { try f.service.playlists.delete("morning", withAlarms: false) }
        #expect(try f.service.playlists.delete("morning", withAlarms: true).count == 1)
        #expect(try f.service.alarms.statuses().isEmpty)
        #expect(try f.service.playlists.names().isEmpty)

        // Removing a clip takes it out of every playlist.
        try f.service.playlists.create("evening", clips: [a.idString, b.idString, a.idString])
        let targets = try f.service.clips.remove([a.idString]).targets
        #expect(targets == [.playlist("evening")])
        #expect(try f.service.playlists.clips(of: .playlist("evening")).map(\.id) == [b.id])
    }

    @Test("The store is versioned: reopening migrates nothing twice, and stays sound")
    func schema() async throws {
        let f = try LibraryFixture()
        _ = try await f.importTone(1)
        let again = try LibraryStore(dataDirectory: f.dir.path)
        #expect(try again.integrityCheck() == "ok")
        #expect(try again.clips().count == 1)
    }
}
