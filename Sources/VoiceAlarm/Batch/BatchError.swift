/// Why a batch could not run at all.
package enum BatchError: Error, CustomStringConvertible {
    /// The output folder cannot be made or written.
    case output(String, String)
    /// The manifest cannot be read or is not a manifest.
    case manifest(String, String)

    package var description: String {
        switch self {
        case .output(let path, let reason), .manifest(let path, let reason): "\(path): \(reason)"
        }
    }
}
