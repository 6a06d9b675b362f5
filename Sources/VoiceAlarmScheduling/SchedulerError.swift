import VoiceAlarmCore

/// Why a scheduling backend could not do what was asked.
package enum SchedulerError: Error, Equatable, CustomStringConvertible, Sendable {
    case unitDirectory(path: String, reason: String)
    /// A path that cannot be written safely into a unit file (a newline, a trailing backslash).
    case unsafePath(String)
    case systemctl(arguments: [String], status: Int32, output: String)
    case daemonRunning(pid: String)
    /// The daemon's lock file cannot be opened.
    case lock(path: String, reason: String)
    /// The daemon's lock file cannot be made where the machine stands (read-only, full, not ours).
    case lockUnavailable(path: String, reason: String)

    package var description: String {
        switch self {
        case .unitDirectory(let path, let reason): "\(path): \(reason)"
        case .unsafePath(let path): "\(path): cannot be written into a systemd unit (control characters or a trailing backslash)"
        case .systemctl(let arguments, let status, let output):
            "systemctl \(arguments.joined(separator: " ")) failed (\(status)): \(output.trimmingCharacters(in: .whitespacesAndNewlines))"
        case .daemonRunning(let pid): "a voicealarm daemon already runs for this data dir (pid \(pid))"
        case .lock(let path, let reason), .lockUnavailable(let path, let reason): "\(path): the daemon's lock cannot be taken: \(reason)"
        }
    }
}

extension SchedulerError: ClassifiedError {
    /// The machine's: a unit folder, systemctl, the daemon's lock.
    package var failureKind: FailureKind { .environment }
    package var failureInput: String? {
        switch self {
        case .unitDirectory(let path, _), .unsafePath(let path), .lock(let path, _), .lockUnavailable(let path, _): path
        case .systemctl, .daemonRunning: nil
        }
    }
}
