/// What an option's value is, as help, the man pages and the completions need to know it.
package enum ValueKind: Sendable, Equatable {
    /// No value: the option is given or not.
    case flag
    /// Free text: a label, a device's name, a shard.
    case text
    /// A file's path (completion offers files).
    case file
    /// A folder's path (completion offers folders).
    case directory
    /// A clip of the library, by id (completion asks the library for them).
    case clip
    /// A playlist of the library, by name (completion asks the library for them).
    case playlist
    /// A number within bounds.
    case number(NumberBounds)
    /// A whole number within a range.
    case wholeNumber(ClosedRange<Int>)
    /// One word of a fixed set; `offered` are those completion proposes (a codec named by the
    /// format is accepted but not offered).
    case choice(offered: [String])
    /// Text made of these words (days: `mon-fri,sat`): completion proposes them, the option reads the whole.
    case words([String])

    /// The fixed values completion offers; nil for free values (paths, numbers, text).
    var offered: [String]? {
        switch self {
        case .choice(let words), .words(let words): words
        default: nil
        }
    }
}
