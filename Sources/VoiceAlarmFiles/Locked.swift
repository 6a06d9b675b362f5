import Foundation

/// A value threads share, behind a pthread mutex (`NSLock`): the batch's and the rebuild's
/// workers, the daemon's state, the web server's sessions and limits, the temporary files a
/// Ctrl-C removes.
///
/// Not the standard library's `Mutex`: on Linux it waits on a futex from code ThreadSanitizer
/// does not see, so `make sanitize` reported races between two holders of one `Mutex` (four
/// threads inserting into one `Mutex<Set>` under `withLock` are a race to it at once); a lock it
/// sees keeps its reports to real races.
package final class Locked<Value>: @unchecked Sendable {
    // Unchecked: `value` is only touched with `lock` held.
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    /// Runs `body` on the value, with the lock held.
    package func withLock<T, Failure: Error>(_ body: (inout Value) throws(Failure) -> T) throws(Failure) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
