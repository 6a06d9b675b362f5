/// A command line that cannot be understood: exit 64, with a pointer to the right help.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var message: String
    /// The subcommand whose help to suggest, or nil for the top-level help.
    public var command: String?

    public init(_ message: String, command: String?) {
        self.message = message
        self.command = command
    }

    public var description: String { message }

    /// The hint printed after the error line.
    public var hint: String {
        "see 'voicealarm \(command.map { "\($0) " } ?? "")--help'"
    }
}
