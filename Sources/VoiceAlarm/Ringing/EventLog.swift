import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// `<data-dir>/events.log`: one line per ring, missed alarm or silent failure, appended, so
/// that what happened at 6:45 can be read at 9:00. A symbolic link in its place is not
/// followed (`O_NOFOLLOW`): nothing is written through it, so the log cannot be pointed at
/// another file (see `LogFile`).
///
/// A line that cannot be written never stops what it records (a ring, above all): `record`
/// throws, and each caller says so once through its own channel — a ring on stderr (which the
/// scheduler's journal keeps), the daemon as a `DaemonNotice` — and carries on.
package struct EventLog: Sendable {
    package var path: String { file.path }
    private let file: LogFile

    package init(dataDirectory: String) { file = LogFile(path: "\(dataDirectory)/events.log") }

    /// Appends `message` with the time it happened. In another user's library (root ringing
    /// it) nothing is written, and that is no failure: a log root made would be one its
    /// owner's rings cannot append to.
    /// - Throws: `SystemError` when the line cannot be appended (a link in the log's place, a
    ///   read-only or full data dir); the event itself already happened.
    package func record(_ message: String, at date: Date) throws(SystemError) {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = .current
        formatter.formatOptions = [.withInternetDateTime]
        guard FileSystem.isMine((path as NSString).deletingLastPathComponent) else { return }
        try file.append("\(formatter.string(from: date)) \(PrintableText.escaped(message))\n")  // one event, one line
    }
}
