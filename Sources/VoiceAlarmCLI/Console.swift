import Foundation

/// Where a command's words go: the result on standard output, everything for a person on
/// standard error. Tests capture both by giving their own writers.
public struct Console: Sendable {
    public var writeOut: @Sendable (String) -> Void
    public var writeErr: @Sendable (String) -> Void
    /// Whether standard error is a terminal (progress and colour only then).
    public var errIsTerminal: Bool

    public init(writeOut: @escaping @Sendable (String) -> Void, writeErr: @escaping @Sendable (String) -> Void, errIsTerminal: Bool = false) {
        self.writeOut = writeOut
        self.writeErr = writeErr
        self.errIsTerminal = errIsTerminal
    }

    /// The process's own standard output and error.
    public static let standard = Console(
        writeOut: { FileHandle.standardOutput.write(Data($0.utf8)) },
        writeErr: { FileHandle.standardError.write(Data($0.utf8)) },
        errIsTerminal: isatty(STDERR_FILENO) == 1)

    /// Prints a result line.
    public func result(_ line: String) { writeOut(line + "\n") }
    /// Prints a line for the person at the terminal.
    public func note(_ line: String) { writeErr(line + "\n") }
}
