import Foundation

/// `<data-dir>/events.log`: one line per ring, missed alarm or silent failure, appended, so
/// that what happened at 6:45 can be read at 9:00.
public struct EventLog: Sendable {
    public let path: String

    public init(dataDirectory: String) { path = "\(dataDirectory)/events.log" }

    /// Appends `message` with the time it happened.
    public func record(_ message: String, at date: Date = Date()) {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = .current
        formatter.formatOptions = [.withInternetDateTime]
        let line = "\(formatter.string(from: date)) \(message)\n"
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = line.withCString { write(fd, $0, strlen($0)) }
    }
}
