import Foundation

/// A value the workers of a batch or a rebuild share, behind a pthread mutex (`NSLock`).
///
/// Not the standard library's `Mutex`: on Linux it waits on a futex from code ThreadSanitizer
/// does not see, so `make sanitize` reported races between two holders of one `Mutex`; a lock
/// it sees keeps its reports to real races.
final class Locked<Value>: @unchecked Sendable {
    // Unchecked: `value` is only touched with `lock` held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` on the value, with the lock held.
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
