import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// `<data-dir>/events.log`: one line per ring, missed alarm or silent failure, appended, so
/// that what happened at 6:45 can be read at 9:00. A symbolic link in its place is not
/// followed (`O_NOFOLLOW`): nothing is written through it, so the log cannot be pointed at
/// another file.
public struct EventLog: Sendable {
    public let path: String

    public init(dataDirectory: String) { path = "\(dataDirectory)/events.log" }

    /// Appends `message` with the time it happened; a log that cannot be opened (a link, a
    /// read-only data dir) is skipped, as the event itself already happened.
    public func record(_ message: String, at date: Date = Date()) {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = .current
        formatter.formatOptions = [.withInternetDateTime]
        // Only the library's owner writes in it: a log root made would be one its owner's rings cannot append to.
        guard FileSystem.isMine((path as NSString).deletingLastPathComponent) else { return }
        let line = "\(formatter.string(from: date)) \(PrintableText.escaped(message))\n"   // one event, one line
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = line.withCString { write(fd, $0, strlen($0)) }
    }
}
