import VoiceAlarm

/// A failure as `--json` prints it on stdout, beside the `error:` line on stderr:
/// `{"error": {"message", "input", "code"}}`. `code` is the exit status (1 failed, 64 usage);
/// `input` is the file, id, name or option at fault, or null when the failure names none.
package struct ErrorReport: Encodable {
    package struct Body: Encodable {
        package var message: String
        package var input: String?
        package var code: Int32

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(message, forKey: .message)
            try container.encode(input, forKey: .input)  // null, not absent: every error object has the same keys
            try container.encode(code, forKey: .code)
        }
        enum Keys: String, CodingKey { case message, input, code }
    }

    package var error: Body

    /// `code`: the command line's exit status (1 failed, 64 usage); the web API's are the same.
    package init(message: String, input: String?, code: Int32) {
        error = Body(message: message, input: input, code: code)
    }
}
