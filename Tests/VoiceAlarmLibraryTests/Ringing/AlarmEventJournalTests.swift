import Foundation
import TestSupport
import Testing

@testable import VoiceAlarm
@testable import VoiceAlarmCore

@Suite("The alarm events' journal")
struct AlarmEventJournalTests {
    static let id = UUID()

    static func event(_ second: Int) -> AlarmEvent { AlarmEvent(.rang, alarm: id, at: Date(timeIntervalSince1970: 1_796_713_200 + Double(second))) }

    @Test("A reader starts at the end and reads each event once; a half-written line waits")
    func reads() throws {
        let folder = TemporaryDirectory("journal")
        let journal = AlarmEventJournal(dataDirectory: folder.path)
        try journal.record(Self.event(0))
        var cursor = journal.end()
        try journal.record(Self.event(1))
        try journal.record(Self.event(2))
        var read = journal.read(after: cursor)
        #expect(read.events.map(\.at) == [Self.event(1).at, Self.event(2).at])
        cursor = read.cursor
        let handle = try #require(FileHandle(forWritingAtPath: journal.path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"alarm\":\"".utf8))
        #expect(journal.read(after: cursor).events.isEmpty)
        try handle.write(contentsOf: Data("\(Self.id.uuidString)\",\"at\":\"2026-12-08T07:00:09Z\",\"kind\":\"stopped\"}\nnot json\n".utf8))
        try handle.close()
        read = journal.read(after: cursor)
        #expect(read.events.map(\.kind) == [.stopped], "the damaged line is skipped")
        #expect(journal.read(after: read.cursor).events.isEmpty)
    }

    @Test("Past its limit the journal moves to .1, and a reader loses nothing it had not read")
    func rotates() throws {
        let folder = TemporaryDirectory("journal")
        let journal = AlarmEventJournal(dataDirectory: folder.path)
        try journal.record(Self.event(0))
        let cursor = journal.end()
        let filler = String(repeating: "x", count: AlarmEventJournal.limit) + "\n"
        try FileHandle(forWritingAtPath: journal.path).map { handle in
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(filler.utf8))
            try handle.close()
        }
        try journal.record(Self.event(1))  // the file is over its limit: moved first, then this
        #expect(FileManager.default.fileExists(atPath: journal.path + ".1"))
        try journal.record(Self.event(2))
        let read = journal.read(after: cursor)
        #expect(read.events.map(\.at) == [Self.event(1).at, Self.event(2).at])
    }
}
