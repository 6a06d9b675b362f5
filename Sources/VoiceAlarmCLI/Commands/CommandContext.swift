import Foundation
import VoiceAlarm
import VoiceAlarmDocuments

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
    /// The wall clock, for what a command judges before any library opens (a certificate's dates).
    var now: @Sendable () -> Date = Date.init

    /// A sentence for the person at the terminal, unless `--quiet`.
    func say(_ line: String) { if !quiet { console.note(line) } }

    /// The result: `value` as one JSON document under `--json`, else the lines `text` prints.
    func present<T: Encodable>(_ value: @autoclosure () throws -> T, text: () throws -> Void) rethrows {
        if json { console.result(JSONOutput.encode(try value())) } else { try text() }
    }

    /// `text` cut to `width` characters with an ellipsis, on a terminal only: a pipe, a file and
    /// `--json` get every character.
    func fitted(_ text: String, _ width: Int) -> String {
        guard console.outColumns != nil, text.count > width, width > 1 else { return text }
        return String(text.prefix(width - 1)) + "…"
    }

    /// How many columns a list line may use: the terminal's width, at most 100.
    var lineWidth: Int { min(console.outColumns ?? 100, 100) }
}
