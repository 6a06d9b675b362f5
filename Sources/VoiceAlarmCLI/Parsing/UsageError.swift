/// A command line that cannot be understood: exit 64, with a pointer to the right help.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var message: String
    /// The subcommand whose help to suggest, or nil for the top-level help.
    public var command: String?
    /// The word or option of the command line at fault (`--days`, `lsit`), for `--json`'s error object.
    public var input: String?
    /// Lines that replace the pointer to help: what to type instead.
    public var advice: [String]
    /// Whether the command line asked for `--json`, as far as it could be read.
    public var jsonRequested = false

    public init(_ message: String, command: String?, input: String? = nil, advice: [String] = []) {
        self.message = message
        self.command = command
        self.input = input
        self.advice = advice
    }

    public var description: String { message }

    /// The hint printed after the error line.
    public var hint: String {
        advice.isEmpty ? "see 'voicealarm \(command.map { "\($0) " } ?? "")--help'" : advice.joined(separator: "\n")
    }
}
