/// One subcommand, declared once: its `spec` (name, summary, arguments, options, discussion and
/// examples) parses the command line and writes `--help`, the man page and the completions, and
/// `run` does the work. A group of commands only lists its commands (`CommandGroup`); nothing
/// else names a command, so a new one is one type in one file.
///
/// `run` reads its options (which checks them) before it opens the library: a malformed command
/// line is refused with exit 64 and nothing opened or written.
///
/// ```swift
/// enum ClipListCommand: Command {
///     static let spec = CommandSpec(name: "clip list", summary: "List the clips", arguments: "",
///                                   minimumArguments: 0, maximumArguments: 0, options: [])
///     static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode { … }
/// }
/// ```
protocol Command: Sendable {
    /// The command's declaration: what parses it and what documents it.
    static var spec: CommandSpec { get }
    /// Runs the command on its parsed line.
    /// - Returns: `.success`, or `.failure` for a request that partly failed and said so.
    /// - Throws: `UsageError` for a malformed line (exit 64), anything else for a failure (exit 1).
    static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws -> ExitCode
}

/// The commands of one subject (`clip …`, `alarm …`), in the order help lists them.
protocol CommandGroup {
    static var commands: [any Command.Type] { get }
}
