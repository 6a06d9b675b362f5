/// A command line that cannot be understood: exit 64, with a pointer to the right help.
package struct UsageError: Error, Equatable, CustomStringConvertible {
    package var message: String
    /// The subcommand whose help to suggest, or nil for the top-level help.
    package var command: String?
    /// The word or option of the command line at fault (`--days`, `lsit`), for `--json`'s error object.
    package var input: String?
    /// Lines that replace the pointer to help: what to type instead.
    package var advice: [String]
    /// Whether the command line asked for `--json`, as far as it could be read.
    package var jsonRequested = false

    package init(_ message: String, command: String?, input: String? = nil, advice: [String] = []) {
        self.message = message
        self.command = command
        self.input = input
        self.advice = advice
    }

    package var description: String { message }

    /// The hint printed after the error line.
    package var hint: String {
        advice.isEmpty ? "see 'voicealarm \(command.map { "\($0) " } ?? "")--help'" : advice.joined(separator: "\n")
    }
}
