import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// `<data-dir>/alarm-events.jsonl`: the `AlarmEvent`s of a library, one JSON line each, appended
/// by whoever makes them happen (a ring, a snooze, the daemon passing a skipped day) and read by
/// whoever follows the alarms (`voicealarm mqtt`). The writer never waits for a reader: an
/// append is one `O_APPEND` write, and a reader that is slow, stopped or absent costs nothing.
/// Bounded: past `limit` bytes the file moves to `.1` (the one before is replaced).
///
/// Like the event log, a line that cannot be written never stops what it records.
package struct AlarmEventJournal: Sendable {
    package static let fileName = "alarm-events.jsonl"
    /// The size past which the file moves to `.1`: some two thousand events.
    package static let limit = 512 * 1024

    /// Where a reader has read up to: the file (its inode) and the offset in it.
    package struct Cursor: Equatable, Sendable {
        package var inode: UInt64
        package var offset: Int
    }

    package let path: String
    private var file: LogFile { LogFile(path: path) }

    package init(dataDirectory: String) { path = "\(dataDirectory)/\(Self.fileName)" }

    /// Appends `event`. In another user's library (root ringing it) nothing is written.
    /// - Throws: `SystemError` when the line cannot be appended; the event happened anyway.
    package func record(_ event: AlarmEvent) throws(SystemError) {
        guard FileSystem.isMine((path as NSString).deletingLastPathComponent) else { return }
        try file.rotate(over: Self.limit)
        try file.append(Self.line(event))
    }

    /// Where the journal ends now: a reader starting here reads only what happens next.
    package func end() -> Cursor {
        guard let stamp = try? FileStamp(path: path) else { return Cursor(inode: 0, offset: 0) }
        return Cursor(inode: stamp.inode, offset: stamp.size)
    }

    /// The events written after `cursor`, and the cursor after them. A line still being written
    /// is left for the next read; a line that is not an event (damaged) is skipped.
    package func read(after cursor: Cursor) -> (events: [AlarmEvent], cursor: Cursor) {
        let current = try? FileStamp(path: path)
        guard let current else { return ([], Cursor(inode: 0, offset: 0)) }
        if current.inode == cursor.inode {
            guard current.size != cursor.offset else { return ([], cursor) }
            let (events, used) = Self.events(in: FileSystem.contents(path) ?? Data(), from: current.size < cursor.offset ? 0 : cursor.offset)
            return (events, Cursor(inode: current.inode, offset: used))
        }
        // Moved to .1 since: the rest of it first (when it is still the one read), then the new file.
        var events: [AlarmEvent] = []
        if cursor.inode != 0, let rotated = try? FileStamp(path: path + ".1"), rotated.inode == cursor.inode {
            events = Self.events(in: FileSystem.contents(path + ".1") ?? Data(), from: cursor.offset).events
        }
        let (fresh, used) = Self.events(in: FileSystem.contents(path) ?? Data(), from: 0)
        return (events + fresh, Cursor(inode: current.inode, offset: used))
    }

    /// The whole lines of `data` from `offset`, decoded, and the offset after the last whole line.
    private static func events(in data: Data, from offset: Int) -> (events: [AlarmEvent], offset: Int) {
        let bytes = [UInt8](data)
        guard offset < bytes.count, let end = bytes.lastIndex(of: UInt8(ascii: "\n")), end >= offset else { return ([], min(offset, bytes.count)) }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let events = bytes[offset...end].split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(AlarmEvent.self, from: Data($0)) }
        return (events, end + 1)
    }

    private static func line(_ event: AlarmEvent) -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(event) else { preconditionFailure("an event always encodes") }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
