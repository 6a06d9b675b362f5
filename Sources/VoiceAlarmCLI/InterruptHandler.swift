import Dispatch
import Foundation
import Synchronization
import VoiceAlarmFiles

/// Ctrl-C and SIGTERM. By default: remove any half-written file, say so, and exit with the
/// signal's status (130 / 143), as swift-driver does through a `DispatchSource`. A command that
/// must stop gracefully (a ring restoring the mixer, the daemon) installs its own reaction.
package enum InterruptHandler {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    private static let reaction = Locked<(@Sendable (Int32) -> Void)?>(nil)
    private static let interrupting = Atomic<Bool>(false)

    /// Whether the default reaction has begun: half-written files are being removed, so work still
    /// running may fail on a folder that is gone. Such a failure is not the user's news.
    package static var isInterrupting: Bool { interrupting.load(ordering: .sequentiallyConsistent) }

    /// Installs the handlers; call once at start-up. A write to a closed pipe or socket (a sound
    /// server that died mid-ring) becomes an error the ring recovers from, not a silent death.
    package static func install() {
        signal(SIGPIPE, SIG_IGN)
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                if let react = reaction.withLock({ $0 }) {
                    react(signalNumber)
                    return
                }
                // Set before anything is removed: a worker that then finds its cache gone, and
                // the main thread ending the command on that failure, see it and stay quiet.
                interrupting.store(true, ordering: .sequentiallyConsistent)
                TemporaryFiles.removeAll()
                FileHandle.standardError.write(Data("error: interrupted: nothing was written\n".utf8))
                Foundation.exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Ends the process with the command's status, unless an interrupt is being handled: then
    /// the handler's exit (130 / 143, after the clean-up) is the one that counts, so this waits.
    package static func exit(_ status: Int32) -> Never {
        while isInterrupting { sleep(60) }
        Foundation.exit(status)
    }

    /// Replaces the default reaction for the rest of the command.
    static func onInterrupt(_ react: @escaping @Sendable (Int32) -> Void) {
        reaction.withLock { $0 = react }
    }
}

/// A flag a signal sets and a loop polls.
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func set() { flag.store(true, ordering: .relaxed) }
    var isSet: Bool { flag.load(ordering: .relaxed) }
}
