/// A subcommand: its name, what it does, what it takes. The same table parses the command line
/// and writes `--help`, so the two never disagree.
public struct CommandSpec: Sendable {
    public var name: String
    public var summary: String
    /// The arguments after the options, as shown in usage: `IN...`.
    public var arguments: String
    public var minimumArguments: Int
    public var maximumArguments: Int?
    public var options: [OptionSpec]
    /// A few lines that explain the command beyond its options.
    public var discussion: String
    public var examples: [String]

    public init(name: String, summary: String, arguments: String, minimumArguments: Int, maximumArguments: Int?,
                options: [any DeclaredOption], discussion: String = "", examples: [String] = []) {
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
