import Foundation

/// A process told apart from any later one that reuses its pid: its pid and the time it started
/// (clock ticks since boot, from `/proc/<pid>/stat`). What lets a command name a folder after
/// its owner, and a later command tell whether that owner still runs.
///
/// ```swift
/// let name = ".voicealarm-cache-\(ProcessIdentity.current.text)-1a2b3c4d"
/// ProcessIdentity(text: "4242-918273")?.isRunning   // false once that process is gone
/// ```
package struct ProcessIdentity: Equatable, Sendable {
    package var pid: Int32
    /// When the process started, in clock ticks since boot.
    package var startTime: UInt64

    package init(pid: Int32, startTime: UInt64) {
        self.pid = pid
        self.startTime = startTime
    }

    /// This process.
    package static let current: ProcessIdentity = {
        let pid = getpid()
        // /proc is always there on Linux; without it, 0 still names this process uniquely while it runs.
        return ProcessIdentity(pid: pid, startTime: startTime(of: pid) ?? 0)
    }()

    /// `<pid>-<start time>`, for a file name.
    package var text: String { "\(pid)-\(startTime)" }

    /// Parses `text` as `text` writes it.
    package init?(text: some StringProtocol) {
        let parts = text.split(separator: "-")
        guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, let start = UInt64(parts[1]) else { return nil }
        self.init(pid: pid, startTime: start)
    }

    /// Whether this very process still runs: its pid is alive and started at the same time
    /// (a recycled pid belongs to another process).
    package var isRunning: Bool {
        Self.startTime(of: pid).map { $0 == startTime } ?? false
    }

    /// Field 22 of `/proc/<pid>/stat`, or nil when there is no such process.
    static func startTime(of pid: Int32) -> UInt64? {
        guard let data = FileSystem.contents("/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        // The command name (field 2) is in parentheses and may hold spaces: count after the last ')'.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }
}
