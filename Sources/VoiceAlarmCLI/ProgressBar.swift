import Foundation
import VoiceAlarm
import VoiceAlarmDocuments
import VoiceAlarmFiles

/// A progress bar on a terminal for `batch`: done/total, rate, time left, failures.
final class ProgressBar: Sendable {
    let console: Console
    let enabled: Bool
    private let drawing = Locked(())

    init(console: Console, enabled: Bool) {
        self.console = console
        self.enabled = enabled
    }

    func show(_ progress: BatchBuilder.Progress) {
        guard enabled, progress.total > 0 else { return }
        drawing.withLock { _ in
            let width = 30
            let filled = progress.done * width / progress.total
            let rate = progress.elapsed > 0 ? Double(progress.done) / progress.elapsed : 0
            let left = rate > 0 ? Double(progress.total - progress.done) / rate : 0
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            console.writeErr(
                String(
                    format: "\r\u{1B}[2K[%@] %d/%d  %.1f/s  ETA %.0f s%@", bar, progress.done, progress.total, rate, left,
                    progress.failed > 0 ? "  \(progress.failed) failed" : ""))
        }
    }

    func finish() { if enabled { console.writeErr("\n") } }
}
