import Foundation
import TestSupport
import Testing
import VoiceAlarm
import VoiceAlarmCore

/// `VoiceAlarmLibrary`, the app API, in process: its events, its typed errors, its clock, and
/// closing. (The example app's run, which builds real ringtones, is `ExamplePackageTests`.)
@Suite("The app API: events, typed errors, the injected clock, closing", .timeLimit(.minutes(1)))
struct LibraryFacadeTests {
    /// Monday 2 June 2025, 08:00 UTC.
    static let monday = Date(timeIntervalSince1970: 1_748_851_200)
    static let utc = TimeZone(identifier: "UTC")!

    @Test("An alarm on a playlist with no recording yet rings the default tone, and one event says why; its next ring follows the injected clock")
    func defaultToneEvent() async throws {
        let dir = TemporaryDirectory("facade")
        let library = try VoiceAlarmLibrary(dataDirectory: dir.file("library"), now: { Self.monday }, timeZone: Self.utc)
        let empty = try library.createPlaylist("empty")
        let status = try library.addAlarm(on: empty, at: AlarmTime(hour: 7, minute: 30), days: [])
        #expect(status.sound == .defaultTone(.noRecording))
        #expect(status.next == Self.monday.addingTimeInterval(23.5 * 3600))  // 07:30 is past at 08:00: tomorrow
        #expect(try library.alarms().map(\.alarm.id) == [status.alarm.id])
        library.close()
        var events: [VoiceAlarmLibrary.Event] = []
        for await event in library.events { events.append(event) }
        #expect(events == [.onDefaultTone(alarm: status.alarm.id, reason: .noRecording)])
    }

    @Test("Failures are typed by who can fix them and say what and why")
    func typedErrors() throws {
        let dir = TemporaryDirectory("facade-errors")
        let library = try VoiceAlarmLibrary(dataDirectory: dir.file("library"), now: { Self.monday }, timeZone: Self.utc)
        #expect(throws: VoiceAlarmError(kind: .refused, description: "nowhere: no such playlist")) {
            try library.addAlarm(on: .playlist("nowhere"), at: AlarmTime(hour: 7, minute: 0))
        }
        do {
            _ = try library.importClip(from: dir.file("missing.wav"))
            Issue.record("a missing file was imported")
        } catch {
            #expect(error.kind == .unusableRecording && error.description.contains("missing.wav"), "\(error)")
        }
        library.close()
        library.close()
        #expect(!library.isOpen)
        #expect(throws: VoiceAlarmError.self) { try library.createPlaylist("later") }
        do { _ = try library.alarms() } catch { #expect(error.kind == .closed) }
    }

    @Test("A library that cannot be opened is a library failure, not a crash")
    func unopenable() throws {
        let dir = TemporaryDirectory("facade-file")
        let file = dir.file("not-a-folder")
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        do {
            _ = try VoiceAlarmLibrary(dataDirectory: file)
            Issue.record("a file opened as a library")
        } catch {
            #expect(error.kind == .library, "\(error)")
        }
    }
}
