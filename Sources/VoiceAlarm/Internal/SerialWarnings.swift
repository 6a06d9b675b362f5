import Foundation

/// A caller's warning sink shared by rebuild workers: called by one thread at a time, so each
/// line reaches it whole (in whatever order the workers give them).
final class SerialWarnings: @unchecked Sendable {
    // Unchecked: `sink` is only ever called with `lock` held.
    private let lock = NSLock()
    private let sink: (ServiceWarning) -> Void

    init(_ sink: @escaping (ServiceWarning) -> Void) { self.sink = sink }

    func say(_ warning: ServiceWarning) { lock.withLock { sink(warning) } }
}
