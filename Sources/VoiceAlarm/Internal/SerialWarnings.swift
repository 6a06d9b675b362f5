import Foundation

/// A caller's warning sink shared by rebuild workers: called by one thread at a time, so each
/// line reaches it whole (in whatever order the workers give them).
final class SerialWarnings: @unchecked Sendable {
    // Unchecked: `sink` is only ever called with `lock` held.
    private let lock = NSLock()
    private let sink: (String) -> Void

    init(_ sink: @escaping (String) -> Void) { self.sink = sink }

    func say(_ line: String) { lock.withLock { sink(line) } }
}
