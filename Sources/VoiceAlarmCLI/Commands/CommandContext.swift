import VoiceAlarm

/// What every command gets besides its own arguments.
struct CommandContext {
    var console: Console
    /// `--json`: print machine-readable results on stdout.
    var json: Bool
    /// `--quiet`: nothing on stderr but errors.
    var quiet: Bool
    /// Opens the library the command line points at (only commands that need it call this).
    var library: () throws -> AlarmService
    /// Where the library is, for commands that must work even when it cannot be opened (ring, repair).
    var location: () throws -> LibraryLocation

    /// A sentence for the person at the terminal, unless `--quiet`.
    func say(_ line: String) { if !quiet { console.note(line) } }
}
