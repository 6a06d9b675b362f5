import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmFiles
import VoiceAlarmScheduling
import VoiceAlarmStore

/// A failure as `--json` prints it on stdout, beside the `error:` line on stderr:
/// `{"error": {"message", "input", "code"}}`. `code` is the exit status (1 failed, 64 usage);
/// `input` is the file, id, name or option at fault, or null when the failure names none.
struct ErrorReport: Encodable {
    struct Body: Encodable {
        var message: String
        var input: String?
        var code: Int32

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(message, forKey: .message)
            try container.encode(input, forKey: .input)   // null, not absent: every error object has the same keys
            try container.encode(code, forKey: .code)
        }
        enum Keys: String, CodingKey { case message, input, code }
    }

    var error: Body

    init(message: String, input: String?, code: ExitCode) {
        error = Body(message: message, input: input, code: code.rawValue)
    }

    /// The input an error is about, for the errors that name one.
    static func input(of error: any Error) -> String? {
        switch error {
        case let error as UsageError: error.input
        case let error as LibraryError: error.input
        case let error as AudioError: error.path
        case let error as ClipSourceError: input(of: error.underlying)
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
