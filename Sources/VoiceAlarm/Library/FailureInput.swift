import VoiceAlarmAudio
import VoiceAlarmFiles
import VoiceAlarmScheduling
import VoiceAlarmStore

/// The input a failure is about — the file, id, name or folder it names — for front ends that
/// report errors as data (the command line's `--json` error object). Nil for failures that name
/// none (a systemctl call, a daemon already running).
package enum FailureInput {
    package static func of(_ error: any Error) -> String? {
        switch error {
        case let error as LibraryError: error.input
        case let error as DeviceError: error.input
        case let error as AudioError: error.path
        case let error as ClipSourceError: of(error.underlying)
        case let error as SystemError: error.path
        case let error as BatchError: path(of: error)
        case let error as StoreError: path(of: error)
        case let error as SchedulerError: path(of: error)
        default: nil
        }
    }

    private static func path(of error: BatchError) -> String {
        switch error {
        case .output(let path, _), .manifest(let path, _): path
        }
    }

    private static func path(of error: StoreError) -> String {
        switch error {
        case .sqlite(let path, _, _, _), .dataDirectory(let path, _), .newerSchema(let path, _, _), .damaged(let path, _): path
        }
    }

    private static func path(of error: SchedulerError) -> String? {
        switch error {
        case .unitDirectory(let path, _), .unsafePath(let path), .lock(let path, _), .lockUnavailable(let path, _): path
        case .systemctl, .daemonRunning: nil
        }
    }
}
