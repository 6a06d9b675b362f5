import Foundation
import Synchronization
import TestSupport
import Testing
import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmScheduling
import VoiceAlarmStore

/// A renderer for several threads at once: writes a small text file naming the clips, counts the
/// renders in flight and keeps the most seen. A render waits (briefly, and only until it has
/// company) for `peers` renders to be in flight at once, so a pool that can run them together does.
private final class CountingRenderer: RingtoneRendering, @unchecked Sendable {
    // Unchecked: every stored variable is read and written with `condition` locked.
    private let condition = NSCondition()
    private var peers = 1
    private var inFlight = 0
    private var most = 0
    private var renders = 0
    private var unusable: Set<UUID> = []
    /// One deadline for the whole test (5 s: a loaded or sanitized run is slow to open a worker),
    /// so waiting for company never adds up to more.
    private var deadline: Date?

    /// The most renders seen in flight at once, and how many there were, since the last reset.
    var seen: (most: Int, renders: Int) { condition.withLock { (most, renders) } }

    /// Forgets what was seen; from now on, `unusable` clips are refused (`UnusableClip`), and
    /// each render waits (until the deadline) for `peers` renders to be in flight at once.
    func reset(unusable: Set<UUID> = [], peers: Int = 1) {
        condition.withLock { (most, renders, self.unusable, deadline, self.peers) = (0, 0, unusable, nil, peers) }
    }

    func render(_ clips: [LibraryClip], settings: RenderSettings, clipsDirectory: String, to output: String) throws -> LoudnessShortfall? {
        let bad: Int? = condition.withLock {
            inFlight += 1
            renders += 1
            most = max(most, inFlight)
            condition.broadcast()
            let deadline = self.deadline ?? Date(timeIntervalSinceNow: 5)
            self.deadline = deadline
            while most < peers, condition.wait(until: deadline) {}
            return clips.firstIndex { unusable.contains($0.id) }
        }
        defer { condition.withLock { inFlight -= 1 } }
        if let bad {
            throw UnusableClip(index: bad, reason: AudioError.corrupt(path: clips[bad].fileName, atSeconds: 1, reason: "bad frame"))
        }
        try Data("voice of \(clips.map(\.idString)) as \(settings.format)".utf8).write(to: URL(fileURLWithPath: output))
        return nil
    }
}

/// A checker that passes every present file.
private struct PresentFileChecker: SoundChecking {
    func problem(with path: String) -> SoundProblem? {
        FileManager.default.fileExists(atPath: path) ? nil : .missing
    }
}

/// What a worker's open throws when told to fail.
private struct OpenRefused: Error {}

/// Opens builders on new connections to the library `connector` names, with the fakes, counting
/// the opens; the first `failing` opens throw.
private final class FakeOpener: SoundBuilderOpening {
    let connector: AlarmService.Connector
    let renderer: CountingRenderer
    private let counts = Mutex((opened: 0, refused: 0, failing: 0))

    init(connector: AlarmService.Connector, renderer: CountingRenderer) {
        self.connector = connector
        self.renderer = renderer
    }

    var opened: Int { counts.withLock { $0.opened } }

    /// From now on, the next `count` opens throw.
    func refuse(next count: Int) { counts.withLock { $0.failing = count } }

    func openBuilder(warn: @escaping @Sendable (ServiceWarning) -> Void) throws -> SoundBuilder {
        let refused = counts.withLock { counts in
            if counts.refused < counts.failing { counts.refused += 1; return true }
            counts.opened += 1
            return false
        }
        if refused { throw OpenRefused() }
        return SoundBuilder(
            store: try LibraryStore(dataDirectory: connector.dataDirectory),
            sounds: try SoundsDirectory(path: connector.soundsDirectory),
            renderer: renderer, checker: PresentFileChecker(), warn: warn)
    }
}

/// A library on the real store and embedded scheduler with fakes for audio: `alarms` voice
/// alarms, each on a playlist of its own (placeholder recordings), built one by one when added.
private final class PoolLibrary {
    let dir = TemporaryDirectory("rebuild-pool")
    let renderer: CountingRenderer
    let opener: FakeOpener
    let service: AlarmService
    let ids: [UUID]
    let clips: [LibraryClip]
    private let collected = Warnings()
    var warnings: [ServiceWarning] { collected.lines }

    init(alarms: Int, jobs: Int) throws {
        let store = try LibraryStore(dataDirectory: dir.path)
        let sounds = try SoundsDirectory(path: dir.file("Sounds"))
        let renderer = CountingRenderer()
        self.renderer = renderer
        let collected = self.collected
        var made: FakeOpener?  // the service makes its workers' opener from its own connector
        service = AlarmService(
            store: store, sounds: sounds, scheduler: try EmbeddedScheduler(dataDirectory: dir.path),
            now: { LibraryFixture.now }, timeZone: TimeZone(identifier: "UTC")!,
            renderer: renderer, checker: PresentFileChecker(), jobs: jobs,
            opener: { connector in
                made = FakeOpener(connector: connector, renderer: renderer)
                return made
            },
            warn: { collected.lines.append($0) })
        opener = made!
        let clips = try (0..<3).map { _ in
            let id = UUID()
            let clip = LibraryClip(
                id: id, title: "clip \(id.uuidString.prefix(4))", fileName: "\(id.uuidString.lowercased()).flac",
                frames: 88_200, trimmedStart: 0, trimmedLength: 88_200, sampleRate: 44_100, contentHash: id.uuidString)
            try store.insertClip(clip)
            _ = FileManager.default.createFile(atPath: "\(store.clipsDirectory)/\(clip.fileName)", contents: Data("flac".utf8))
            return clip
        }
        let service = self.service
        self.clips = clips
        ids = try (0..<alarms).map { index in
            let name = "p\(index)"
            try store.createPlaylist(name)
            try store.setClips([clips[index % 3].id, clips[(index + 1) % 3].id], of: .playlist(name))
            return try service.alarms.add(on: .playlist(name), at: AlarmTime(hour: 5 + index, minute: 0), days: .everyDay).status.alarm.id
        }
    }

    /// Every alarm plays its own voice file in `format`, and the scheduler holds it with that file.
    func expectEveryAlarmOnVoice(_ format: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let held = Dictionary(uniqueKeysWithValues: try service.scheduler.alarms().map { ($0.id, $0.configuration.sound) })
        for id in ids {
            let file = "\(id.uuidString.lowercased()).\(format)"
            let stored = try #require(try service.store.alarm(id), sourceLocation: sourceLocation)
            #expect(stored.soundFile == file && stored.rebuildPending == nil, sourceLocation: sourceLocation)
            #expect(service.builder.resolve(stored) == .voice(fileName: file), sourceLocation: sourceLocation)
            #expect(held[id] == .named(file), "scheduled with its voice", sourceLocation: sourceLocation)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: service.sounds.path).sorted()
        #expect(files == ids.map { "\($0.uuidString.lowercased()).\(format)" }.sorted(), "old files gone", sourceLocation: sourceLocation)
    }
}

@Suite("Several ringtones rebuilt at once: the rebuild pool's rules, with fake audio", .timeLimit(.minutes(1)))
struct RebuildPoolTests {
    @Test(
        "A settings change on six alarms builds `jobs` at once, each on a worker's own connection, with the serial summary",
        arguments: [1, 2])
    func settingsChange(_ jobs: Int) throws {
        let lib = try PoolLibrary(alarms: 6, jobs: jobs)
        lib.renderer.reset(unusable: [lib.clips[0].id], peers: jobs)  // two alarms' playlists hold it: each left out, with a warning
        let summary = try lib.service.settings.change(.format, to: "caf")

        #expect(lib.renderer.seen.most == jobs, "renders in flight at once")
        #expect(lib.opener.opened == (jobs == 1 ? 0 : jobs), "one builder of its own per worker")
        #expect(summary.rebuilt == lib.ids, "every alarm rebuilt, in the alarms' order: \(summary)")
        #expect(summary.unchanged.isEmpty && summary.onDefault.isEmpty && summary.deferred.isEmpty)
        try lib.expectEveryAlarmOnVoice("caf")
        let leftOut = lib.warnings.filter { if case .clipUnusable(lib.clips[0].id, lib.clips[0].title, _, _) = $0 { true } else { false } }
        #expect(leftOut.count == 4, "each line whole, once per playlist holding the clip: \(lib.warnings)")
        #expect(lib.warnings.count == 4)
    }

    @Test(
        "Workers that cannot open the library leave no alarm undecided: the others, or the caller, build their share",
        arguments: [1, 2])
    func openFailures(_ refused: Int) throws {
        let lib = try PoolLibrary(alarms: 5, jobs: 2)
        lib.renderer.reset(peers: max(1, 2 - refused))
        lib.opener.refuse(next: refused)
        let summary = try lib.service.settings.change(.format, to: "wav")
        #expect(lib.opener.opened == 2 - refused)
        #expect(summary.rebuilt == lib.ids, "\(summary)")
        #expect(lib.renderer.seen.renders == 5, "each alarm built once")
        try lib.expectEveryAlarmOnVoice("wav")
        #expect(
            lib.warnings.count == refused && lib.warnings.allSatisfy { if case .rebuildWorkerUnavailable = $0 { true } else { false } },
            "one line per worker that could not open: \(lib.warnings)")
    }

    @Test("One alarm builds inline on the caller's connection; a clip removed from three playlists rebuilds their alarms together")
    func inlineAndClipRemoval() throws {
        let lib = try PoolLibrary(alarms: 4, jobs: 2)
        lib.renderer.reset()
        _ = try lib.service.playlists.move(in: "p0", from: 1, to: 2)
        #expect(lib.opener.opened == 0 && lib.renderer.seen.renders == 1)

        lib.renderer.reset(peers: 2)
        let removed = try lib.service.clips.remove([lib.clips[0].idString])  // in p0, p2 and p3: one alarm each
        #expect(lib.opener.opened == 2 && lib.renderer.seen.most == 2, "the three targets' alarms in one pool")
        #expect(Set(removed.summary.rebuilt) == [lib.ids[0], lib.ids[2], lib.ids[3]] && removed.summary.touched.count == 3, "\(removed.summary)")
        try lib.expectEveryAlarmOnVoice("m4a")
    }

    @Test("The service makes its workers' opener from its own library, whatever its renderer; read-only, it does not ask")
    func openerFactory() throws {
        let lib = try PoolLibrary(alarms: 0, jobs: 2)
        #expect(lib.opener.connector.dataDirectory == lib.dir.path && lib.opener.connector.soundsDirectory == lib.service.soundsDirectory)

        var asked = 0
        let readOnly = AlarmService(
            store: try LibraryStore(readingOnly: lib.dir.path), sounds: lib.service.sounds,
            scheduler: lib.service.scheduler, renderer: lib.renderer, checker: PresentFileChecker(),
            opener: { _ in
                asked += 1; return nil
            })
        #expect(asked == 0 && readOnly.soundsDirectory == lib.service.soundsDirectory)
    }

    @Test("reconcile builds the missing voice files together, then schedules every alarm on its voice")
    func reconcileBuildsTogether() throws {
        let lib = try PoolLibrary(alarms: 4, jobs: 2)
        for name in try FileManager.default.contentsOfDirectory(atPath: lib.service.sounds.path) {
            try FileManager.default.removeItem(atPath: lib.service.sounds.path(of: name))
        }
        lib.renderer.reset(peers: 2)
        let report = try lib.service.sync.reconcile()
        #expect(lib.renderer.seen.most == 2 && lib.renderer.seen.renders == 4)
        #expect(report.isEmpty, "the scheduler already held each voice file's name: \(report)")
        try lib.expectEveryAlarmOnVoice("m4a")
    }
}
