/// What every command gets besides its own arguments.
struct CommandContext {
    var console: Console
    /// `--json`: print machine-readable results on stdout.
    var json: Bool
    /// `--quiet`: nothing on stderr but errors.
    var quiet: Bool
}
