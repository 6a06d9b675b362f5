/// A subcommand: its name, what it does, what it takes. The same table parses the command line
/// and writes `--help`, so the two never disagree.
package struct CommandSpec: Sendable {
    package var name: String
    package var summary: String
    /// The arguments after the options, as shown in usage: `IN...`.
    package var arguments: String
    package var minimumArguments: Int
    package var maximumArguments: Int?
    package var options: [OptionSpec]
    /// A few lines that explain the command beyond its options.
    package var discussion: String
    package var examples: [String]

    package init(
        name: String, summary: String, arguments: String, minimumArguments: Int, maximumArguments: Int?,
        options: [any DeclaredOption], discussion: String = "", examples: [String] = []
    ) {
        self.name = name
        self.summary = summary
        self.arguments = arguments
        self.minimumArguments = minimumArguments
        self.maximumArguments = maximumArguments
        self.options = options.map(\.spec)
        self.discussion = discussion
        self.examples = examples
    }
}
