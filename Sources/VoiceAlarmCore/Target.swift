/// What an alarm plays: a playlist by name, or the one manifesto recording.
public enum Target: Hashable, Sendable, CustomStringConvertible {
    /// A playlist, by its name.
    case playlist(String)
    /// The manifesto: the one recording a person chose to wake up to above all.
    case manifesto

    /// The word that names the manifesto, and so can never name a playlist.
    package static let manifestoName = "manifesto"

    /// A target as typed on the command line: `manifesto`, or a playlist name.
    package init(name: String) {
        self = name.lowercased() == Self.manifestoName ? .manifesto : .playlist(name)
    }

    /// The playlist's name, or `manifesto`.
    public var description: String {
        switch self {
        case .playlist(let name): name
        case .manifesto: Self.manifestoName
        }
    }
}
