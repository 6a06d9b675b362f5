import VoiceAlarmCore

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

extension BatchError: ClassifiedError {
    /// The manifest's contents are the person's to fix; an output folder is the machine's.
    package var failureKind: FailureKind {
        switch self {
        case .output: .environment
        case .manifest: .invalid
        }
    }
    package var failureInput: String? {
        switch self {
        case .output(let path, _), .manifest(let path, _): path
        }
    }
}
