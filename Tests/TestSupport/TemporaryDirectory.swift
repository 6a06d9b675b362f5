import Foundation

/// A fresh folder under the system's temporary directory, removed when the value goes away.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String

    /// A folder in `base` (the system's temporary directory by default). One a test process
    /// keeps to its end (a fixture held by a static) goes in `ProcessFolder.path`, which is
    /// removed when the process exits.
    public init(_ label: String = "test", in base: String = FileManager.default.temporaryDirectory.path) {
        path = "\(base)/voicealarm-\(label)-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A path inside the folder.
    public func file(_ name: String) -> String { "\(path)/\(name)" }

    /// The names in the folder, hidden ones included, sorted.
    public func contents() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}
