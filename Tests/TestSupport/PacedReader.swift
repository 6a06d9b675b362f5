import Foundation

/// Reads the pipe the test devices' 'slow' ALSA device plays into, about in real time (8,820 bytes
/// every tenth of a second: 44.1 kHz, 16-bit mono), so a ring into it lasts as one into a speaker
/// would. The pipe is opened non-blocking and read from a task that suspends between reads: no
/// thread waits on it. Stops when the value goes.
public final class PacedReader: Sendable {
    private let task: Task<Void, Never>

    /// Starts reading `fifo` (opened read-write, so it never sees an end while the device reopens it).
    public init(_ fifo: String) {
        let descriptor = open(fifo, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        task = Task.detached {
            guard descriptor >= 0 else { return }
            defer { close(descriptor) }
            var buffer = [UInt8](repeating: 0, count: 8_820)
            while !Task.isCancelled {
                _ = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }  // EAGAIN: nothing played yet
                await pause(0.1)
            }
        }
    }

    deinit { task.cancel() }
}
