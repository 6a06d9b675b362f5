import VoiceAlarm

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
        (error as? UsageError).map { $0.input } ?? FailureInput.of(error)
    }
}
