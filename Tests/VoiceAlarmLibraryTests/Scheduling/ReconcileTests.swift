import Foundation
import Synchronization
import TestSupport
import Testing
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmScheduling

private let seven = AlarmTime(hour: 7, minute: 0)

/// A `systemctl` with no user manager (as on these machines).
private struct NoManager: SystemctlRunning {
    func user(_ arguments: [String]) -> (status: Int32, output: String) { (1, "Failed to connect to bus") }
    func lingering() -> Bool { false }
}

@Suite("Reconciling the scheduler with the library")
struct ReconcileTests {
    static let backends: [String] = ["embedded", "systemd"]

    private func fixture(_ backend: String) throws -> LibraryFixture {
        try LibraryFixture(makeScheduler: { dataDir in
            backend == "embedded"
                ? try EmbeddedScheduler(dataDirectory: dataDir) as any AlarmScheduler
                : try SystemdTimerScheduler(
                    unitDirectory: dataDir + "/units", dataDirectory: dataDir, executable: ProjectPaths.binary,
                    timeZone: TimeZone(identifier: "UTC")!, now: { LibraryFixture.now }, systemctl: NoManager())
        })
    }

    @Test("Nothing to do: a second run reports nothing", arguments: backends)
    func idempotent(_ backend: String) throws {
        let f = try fixture(backend)
        let clip = try f.service.clips.add(f.sample("calm.wav"), title: "Calm")
        _ = try f.service.playlists.setManifesto(clip.idString)
        _ = try f.service.alarms.add(on: .manifesto, at: seven, days: .everyDay)
        let report = try f.service.sync.reconcile()
        #expect(report.isEmpty)
        #expect(try f.service.sync.reconcile().isEmpty)
    }

    @Test("Missing, unknown, stale sound, stale schedule — each repaired once", arguments: backends)
    func scenarios(_ backend: String) throws {
        let f = try fixture(backend)
        let clip = try f.service.clips.add(f.sample("calm.wav"), title: "Calm")
        _ = try f.service.playlists.setManifesto(clip.idString)
        let missing = try f.service.alarms.add(on: .manifesto, at: seven, days: [.monday]).status.alarm.id
        let staleSound = try f.service.alarms.add(on: .manifesto, at: AlarmTime(hour: 8, minute: 0), days: [.monday]).status.alarm.id
        let staleSchedule = try f.service.alarms.add(on: .manifesto, at: AlarmTime(hour: 9, minute: 0), days: [.monday]).status.alarm.id
        let unknown = UUID()
        let scheduler = f.service.scheduler
        try scheduler.cancel(id: missing)
        try scheduler.schedule(id: staleSound, configuration: .init(schedule: .weekly(AlarmTime(hour: 8, minute: 0), days: [.monday]), sound: .default))
        try scheduler.schedule(
            id: staleSchedule,
            configuration: .init(
                schedule: .weekly(AlarmTime(hour: 9, minute: 30), days: [.monday]),
                sound: .named("\(staleSchedule.uuidString.lowercased()).m4a")))
        try scheduler.schedule(id: unknown, configuration: .init(schedule: .weekly(seven, days: [.sunday]), sound: .default))

        let report = try f.service.sync.reconcile()
        #expect(report.scheduled == [missing])
        #expect(Set(report.updated) == [staleSound, staleSchedule])
        #expect(report.cancelled == [unknown])
        #expect(try f.service.sync.reconcile().isEmpty)
        let held = Dictionary(uniqueKeysWithValues: try scheduler.alarms().map { ($0.id, $0.configuration) })
        #expect(held[staleSound]?.sound == .named("\(staleSound.uuidString.lowercased()).m4a"))
        #expect(held[staleSchedule]?.schedule == .weekly(AlarmTime(hour: 9, minute: 0), days: [.monday]))
        #expect(held[unknown] == nil)
    }

    @Test("A deleted voice file is rebuilt, a finished one-off is cancelled")
    func repairsAndFinishes() throws {
        let clock = Mutex(LibraryFixture.now)
        let f = try LibraryFixture(now: { clock.withLock { $0 } })
        let clip = try f.service.clips.add(f.sample("calm.wav"), title: "Calm")
        _ = try f.service.playlists.setManifesto(clip.idString)
        let weekly = try f.service.alarms.add(on: .manifesto, at: seven, days: .everyDay).status.alarm.id
        let once = try f.service.alarms.add(on: .manifesto, at: AlarmTime(hour: 23, minute: 0)).status.alarm.id
        let file = try #require(try f.soundPath(weekly))
        try FileManager.default.removeItem(atPath: file)
        clock.withLock { $0 = $0.addingTimeInterval(2 * 3600) }  // 00:00: the 23:00 one-off has rung
        let report = try f.service.sync.reconcile()
        #expect(FileManager.default.fileExists(atPath: file))
        #expect(report.cancelled == [once])
        #expect(report.scheduled.isEmpty && report.updated.isEmpty)
    }

    @Test("A corrupt unit of ours is rewritten; one for an alarm the library does not know is removed")
    func corruptUnits() throws {
        let f = try fixture("systemd")
        let clip = try f.service.clips.add(f.sample("calm.wav"), title: "Calm")
        _ = try f.service.playlists.setManifesto(clip.idString)
        let id = try f.service.alarms.add(on: .manifesto, at: seven, days: .everyDay).status.alarm.id
        let unit = f.dir.file("units/voicealarm-\(id.uuidString.lowercased()).timer")
        try "garbage\n".write(toFile: unit, atomically: true, encoding: .utf8)
        let stray = UUID()
        try "[Timer]\nOnCalendar=daily\n".write(
            toFile: f.dir.file("units/voicealarm-\(stray.uuidString.lowercased()).timer"), atomically: true, encoding: .utf8)
        let report = try f.service.sync.reconcile()
        #expect(report.updated == [id])
        #expect(report.cancelled == [stray])
        #expect(try String(contentsOfFile: unit, encoding: .utf8).contains("AccuracySec=1s"))
        #expect(try f.service.sync.reconcile().isEmpty)
    }
}
