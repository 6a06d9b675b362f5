import Foundation
import VoiceAlarmCore

/// Where a command's words go: the result on standard output, everything for a person on
/// standard error. Tests capture both by giving their own writers.
package struct Console: Sendable {
    package var writeOut: @Sendable (String) -> Void
    package var writeErr: @Sendable (String) -> Void
    /// Whether standard error is a terminal (progress and colour only then).
    package var errIsTerminal: Bool
    /// The width of standard output when it is a terminal (lists are fitted to it, long titles
    /// ellipsised); nil when it is a pipe or a file, which get every character.
    package var outColumns: Int?

    package init(
        writeOut: @escaping @Sendable (String) -> Void, writeErr: @escaping @Sendable (String) -> Void,
        errIsTerminal: Bool = false, outColumns: Int? = nil
    ) {
        self.writeOut = writeOut
        self.writeErr = writeErr
        self.errIsTerminal = errIsTerminal
        self.outColumns = outColumns
    }

    /// The process's own standard output and error.
    package static let standard = Console(
        writeOut: { FileHandle.standardOutput.write(Data($0.utf8)) },
        writeErr: { line in
            // A failure caused by Ctrl-C's clean-up is not news; the handler says what happened.
            guard !InterruptHandler.isInterrupting else { return }
            FileHandle.standardError.write(Data(line.utf8))
        },
        errIsTerminal: isatty(STDERR_FILENO) == 1,
        outColumns: terminalColumns())

    /// The terminal's width (`TIOCGWINSZ`, else `$COLUMNS`, else 100), or nil when stdout is not a terminal.
    private static func terminalColumns() -> Int? {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? 100
    }

    /// Prints a result line.
    package func result(_ line: String) { writeOut(line + "\n") }
    /// Prints a line for the person at the terminal: one line, whatever it quotes (a control
    /// character in a name, a path or an option is shown escaped, never obeyed).
    package func note(_ line: String) { writeErr(PrintableText.escaped(line) + "\n") }
}
