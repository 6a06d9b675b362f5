import Foundation
import TestSupport
import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmScheduling
import VoiceAlarmStore

/// A library in a temporary folder, with "now" fixed at Sunday 2026-11-29 22:00 UTC.
final class LibraryFixture {
    let dir: TemporaryDirectory
    let service: AlarmService
    private let collected = Warnings()
    /// The warnings the library gave a person, in order.
    var warnings: [ServiceWarning] { collected.lines }
    static let now = Date(timeIntervalSince1970: 1_795_989_600)  // date -u -d "2026-11-29 22:00" +%s

    /// A library whose scheduler is `makeScheduler(dataDir)` (the embedded one by default).
    init(
        now: @escaping @Sendable () -> Date = { LibraryFixture.now },
        makeScheduler: ((String) throws -> any AlarmScheduler)? = nil
    ) throws {
        dir = TemporaryDirectory("library")
        let store = try LibraryStore(dataDirectory: dir.path)
        let sounds = try SoundsDirectory(path: dir.file("Sounds"))
        let scheduler = try makeScheduler?(dir.path) ?? EmbeddedScheduler(dataDirectory: dir.path)
        let collected = self.collected
        service = AlarmService(
            store: store, sounds: sounds, scheduler: scheduler,
            now: now, timeZone: TimeZone(identifier: "UTC")!, warn: { collected.lines.append($0) })
    }

    func sample(_ name: String) -> String { "\(ProjectPaths.sampleAudio)/\(name)" }

    /// Imports a tone of `seconds` made by the ffmpeg CLI.
    func importTone(_ seconds: Double, frequency: Double = 440, title: String = "tone") async throws -> LibraryClip {
        let path = dir.file("\(title)-\(UUID().uuidString.prefix(4)).wav")
        try await AudioFixtures.tone(path, seconds: seconds, frequency: frequency)
        return try service.clips.add(path, title: title)
    }

    func soundPath(_ id: UUID) throws -> String? {
        try service.store.alarm(id)?.soundFile.map { service.sounds.path(of: $0) }
    }

    /// SHA-256 of an alarm's voice file, by the same libavutil digest the library uses for clips.
    func soundHash(_ id: UUID) throws -> String? {
        try soundPath(id).map { try ContentHash.sha256(file: $0) }
    }

    func scheduled(_ id: UUID) throws -> ScheduledAlarm? {
        try service.scheduler.alarms().first { $0.id == id }
    }
}

/// Warnings collected by a fixture's service, as the typed values it gave.
final class Warnings {
    var lines: [ServiceWarning] = []
}
