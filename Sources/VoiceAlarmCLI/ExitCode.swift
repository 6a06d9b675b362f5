/// The process's exit status, as the conventions fix it.
package enum ExitCode: Int32, Sendable {
    /// Done.
    case success = 0
    /// A well-formed request that failed.
    case failure = 1
    /// A malformed command line.
    case usage = 64
}
