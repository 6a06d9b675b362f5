/// Anything that declares an option: its row in the command table (`spec`), which the parser,
/// `--help`, the man pages and the completions read.
package protocol DeclaredOption: Sendable {
    var spec: OptionSpec { get }
}
