/// One entry of a tar file as its header describes it, before any of its data is read.
package struct TarEntry: Equatable, Sendable {
    /// What the entry is. Only `regular` and `directory` carry a library; the rest are named so
    /// that a reader can refuse them by what they are.
    package enum Kind: String, Equatable, Sendable {
        case regular = "a file"
        case directory = "a folder"
        case symbolicLink = "a symbolic link"
        case hardLink = "a hard link"
        case device = "a device"
        case fifo = "a FIFO"
        case socket = "a socket"
        case other = "an entry of an unknown type"
    }

    /// The entry's path as stored (never resolved against anything).
    package var path: String
    package var kind: Kind
    /// The data's length as the header says; 0 for what carries none.
    package var size: Int64
}
