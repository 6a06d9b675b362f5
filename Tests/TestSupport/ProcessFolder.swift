import Foundation

/// A folder under the system's temporary directory for what a test process keeps until it ends
/// (libraries made once and copied, keys of paired browsers), removed when the process exits, so
/// a test run leaves nothing behind in the temporary directory.
public enum ProcessFolder {
    /// The folder, made on first use.
    public static let path: String = {
        let path = "\(FileManager.default.temporaryDirectory.path)/voicealarm-process-\(getpid())-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: ProcessFolder.path) }
        return path
    }()
}
