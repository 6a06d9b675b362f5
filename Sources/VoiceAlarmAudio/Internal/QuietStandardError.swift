import Foundation

/// Runs C library calls that print their own diagnostics to stderr (JACK's client when its
/// server is absent, eSpeak NG when its data is missing) with stderr pointed at /dev/null, so a
/// command's stderr keeps to its own one-line errors. The library's failure is reported through
/// VoiceAlarm's own error instead.
///
/// Process-wide: call it only where no other thread writes to stderr (the command line's
/// listing and synthesis, each under its own lock or alone).
enum QuietStandardError {
    static func run<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let saved = dup(STDERR_FILENO)
        let null = open("/dev/null", O_WRONLY)
        if saved >= 0, null >= 0 { dup2(null, STDERR_FILENO) }
        defer {
            if saved >= 0 { dup2(saved, STDERR_FILENO); close(saved) }
            if null >= 0 { close(null) }
        }
        return try body()
    }
}
