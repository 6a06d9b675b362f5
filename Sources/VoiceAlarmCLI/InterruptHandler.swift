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
                TemporaryFiles.removeAll()
                FileHandle.standardError.write(Data("error: interrupted: nothing was written\n".utf8))
                exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
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
