import Dispatch
import Foundation
import VoiceAlarmAudio

/// Ctrl-C and SIGTERM: remove any half-written file, say so, and exit with the signal's status
/// (130 / 143), as swift-driver does through a `DispatchSource`.
public enum InterruptHandler {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// Installs the handlers; call once at start-up.
    public static func install() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                TemporaryFiles.removeAll()
                FileHandle.standardError.write(Data("error: interrupted: nothing was written\n".utf8))
                exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }
}
