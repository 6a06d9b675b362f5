import Foundation
import TestSupport
import Testing
import VoiceAlarmCore
import VoiceAlarmScheduling

@testable import VoiceAlarm

/// A scheduler that holds its list in memory, standing in for the backend it says it is; the
/// devices it is asked to carry are noted.
private final class MemoryScheduler: AlarmScheduler {
    let backend: SchedulerBackend
    let systemdUnitDirectory: String?
    var held: [UUID: AlarmConfiguration] = [:]
    var carried: [String?] = []

    init(backend: SchedulerBackend = .systemd, unitDirectory: String? = nil) {
        self.backend = backend
        systemdUnitDirectory = unitDirectory
    }

    func carrying(device: String?) throws -> any AlarmScheduler {
        carried.append(device)
        return self
    }

    func schedule(id: UUID, configuration: AlarmConfiguration) throws { held[id] = configuration }
    func cancel(id: UUID) throws { held[id] = nil }
    func alarms() throws -> [ScheduledAlarm] { held.map { ScheduledAlarm(id: $0.key, configuration: $0.value) } }
    func problems() -> [SchedulerProblem] { [] }
}

private func take(_ path: String, frames: Int) -> TakeRecorder.Take {
    TakeRecorder.Take(path: path, frames: frames, sampleRate: 48_000, overruns: 0, peak: -6, reason: .asked, failure: nil)
}

@Suite("The service's parts around the library: takes, the daemon host, the doctor", .timeLimit(.minutes(1)))
struct ServicePartsTests {
    @Test("A take becomes a clip (appended to its playlist) with the loudness measured while storing; the take file goes")
    func takeStored() async throws {
        let f = try LibraryFixture()
        try f.service.playlists.create("morning")
        let importer = TakeImporter(service: f.service)
        let plan = try importer.prepare(replacing: nil, playlist: "morning")
        #expect(plan.takePath.hasPrefix(f.dir.file("takes/")))
        try await AudioFixtures.tone(plan.takePath, seconds: 2, rate: 48_000)
        let result = try importer.finish(take(plan.takePath, frames: 96_000), plan: plan, title: "Strong", keep: false)
        #expect(try f.service.playlists.clips(of: .playlist("morning")).map(\.id) == [result.clip.id])
        #expect(abs(result.loudness.integrated - -15) < 2, "\(result.loudness.integrated) LUFS")  // a -12 dBFS sine
        #expect(!FileManager.default.fileExists(atPath: plan.takePath))
    }

    @Test("An empty take is refused and removed; a take the library cannot store is kept, with its path in the error")
    func takeRefusedOrKept() async throws {
        let f = try LibraryFixture()
        let importer = TakeImporter(service: f.service)
        let empty = try importer.prepare(replacing: nil, playlist: nil)
        try await AudioFixtures.tone(empty.takePath, seconds: 1, rate: 48_000)
        #expect(throws: TakeImporter.Refusal.self) { try importer.finish(take(empty.takePath, frames: 0), plan: empty, title: "x", keep: false) }
        #expect(!FileManager.default.fileExists(atPath: empty.takePath))

        let plan = try importer.prepare(replacing: nil, playlist: nil)
        try await AudioFixtures.tone(plan.takePath, seconds: 1, rate: 48_000)
        // The clips folder is gone and a file stands in its place: the library cannot write the clip.
        try FileManager.default.removeItem(atPath: f.service.store.clipsDirectory)
        try Data().write(to: URL(fileURLWithPath: f.service.store.clipsDirectory))
        do {
            _ = try importer.finish(take(plan.takePath, frames: 48_000), plan: plan, title: "x", keep: false)
            Issue.record("the clip was stored into a file")
        } catch let refusal as TakeImporter.Refusal {
            #expect("\(refusal)".hasSuffix("the take is kept as \(plan.takePath)"))
        }
        #expect(FileManager.default.fileExists(atPath: plan.takePath), "nothing spoken is lost")
    }

    @Test("The daemon host refuses a library on another backend, and a stop before run returns at once")
    func daemonHost() throws {
        let systemd = try LibraryFixture(makeScheduler: { _ in MemoryScheduler() })
        #expect(throws: DaemonHost.Refusal.self) {
            try DaemonHost(location: LibraryLocation(dataDirectory: systemd.dir.path), options: .init(), say: { _ in }, open: { systemd.service })
        }

        let f = try LibraryFixture()
        let location = LibraryLocation(dataDirectory: f.dir.path)
        let host = try DaemonHost(location: location, options: .init(), say: { _ in }, open: { f.service })
        #expect(host.degraded == nil)
        #expect(throws: (any Error).self) { try DaemonHost(location: location, options: .init(), say: { _ in }, open: { f.service }) }  // one per data dir
        host.stop()
        let start = Date()
        host.run()
        #expect(Date().timeIntervalSince(start) < 2)
    }

    @Test("The doctor says when the device does not open and when nothing rings the embedded alarms")
    func doctor() throws {
        let f = try LibraryFixture()
        struct NoDevice: Error, CustomStringConvertible { var description: String { "no such card" } }
        let report = try Doctor(service: f.service, openDevice: { _ in throw NoDevice() }).examine()
        #expect(report.backend == .embedded && !report.deviceOpens)
        #expect(report.problems.contains(.deviceDoesNotOpen(device: "default", error: "no such card")))
        #expect(report.problems.contains { if case .scheduler(.noDaemon(f.service.dataDirectory), _) = $0 { true } else { false } })
        #expect(report.defaultTone.map { FileManager.default.fileExists(atPath: $0) } == true)
    }

    @Test("The doctor, the daemon service and the device setting ask the scheduler what it can do, so a fake stands in for either backend")
    func schedulerCapabilities() throws {
        var systemdLike: MemoryScheduler?
        let f = try LibraryFixture(makeScheduler: { _ in
            systemdLike = MemoryScheduler(backend: .systemd, unitDirectory: "/nonexistent/units")
            return systemdLike!
        })
        let report = try Doctor(service: f.service, openDevice: { _ in }).examine()
        #expect(report.backend == .systemd && report.unitDirectory == "/nonexistent/units")
        #expect(report.wakeClock == "systemd" && report.daemonService == nil)
        #expect(throws: DaemonService.Refusal.self) { try DaemonService(service: f.service, location: LibraryLocation(dataDirectory: f.dir.path)) }
        _ = try f.service.settings.setDevice("plughw:1,0")
        #expect(systemdLike?.carried == ["plughw:1,0"], "the units re-written through the scheduler carrying the device")

        let embedded = try LibraryFixture(makeScheduler: { _ in MemoryScheduler(backend: .embedded) })
        let daemonReport = try Doctor(service: embedded.service, openDevice: { _ in }).examine()
        #expect(daemonReport.backend == .embedded && daemonReport.unitDirectory == nil && daemonReport.wakeClock != "systemd")
        let service = try DaemonService(service: embedded.service, location: LibraryLocation(dataDirectory: embedded.dir.path))
        #expect(service.unit.dataDirectory == embedded.dir.path)
    }
}
