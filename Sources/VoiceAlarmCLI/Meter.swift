import Foundation
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmDocuments

/// The live level meter on a terminal (redrawn in place), or a plain progress line a second.
final class Meter {
    let console: Console
    let terminal: Bool
    let quiet: Bool
    let rate: Int
    let maxSeconds: Double?
    private var lastWholeSecond = 0
    private var notedCap = false

    init(console: Console, terminal: Bool, quiet: Bool, rate: Int, maxSeconds: Double?) {
        self.console = console
        self.terminal = terminal
        self.quiet = quiet
        self.rate = rate
        self.maxSeconds = maxSeconds
    }

    func show(_ level: TakeRecorder.Level, frames: Int) {
        guard !quiet else { return }
        let seconds = Double(frames) / Double(rate)
        if seconds > RenderSettings.defaultCap, !notedCap {
            notedCap = true
            console.writeErr(
                (terminal ? "\n" : "")
                    + "note: past 29 s; the whole take is kept, but a ringtone of it is trimmed to the cap (or it won't fit after other clips).\n")
        }
        if terminal {
            // Digital silence peaks at -infinity dBFS: the bar starts at -60.
            let filled = Int((min(max(level.peak, -60), 0) + 60) / 3)
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: 20 - filled)
            let left = maxSeconds.map { String(format: "  %.1f s left", max(0, $0 - seconds)) } ?? ""
            let line = String(
                format: "\r\u{1B}[2K● REC %5.1f s [%@] peak %6.1f dBFS  rms %6.1f dBFS%@%@",
                seconds, bar, max(level.peak, -99), max(level.rms, -99), left, level.clipping ? "  CLIPPING" : "")
            console.writeErr(line)
        } else if frames / rate > lastWholeSecond {
            lastWholeSecond = frames / rate
            console.writeErr(String(format: "recording: %.1f s, peak %.1f dBFS\n", seconds, max(level.peak, -99)))
        }
    }

    func finish() { if terminal && !quiet { console.writeErr("\n") } }
}
