import Foundation

/// Why a built ringtone may not be what its playlist's author expects, for a batch's
/// `warnings`: clips left out because one crossed the cap (a short clip followed by a 35 s one
/// silently becomes a ringtone of the short clip alone), a ringtone that ends up very short, or
/// one left under its loudness target (`LoudnessShortfall`).
///
/// ```swift
/// RingtoneWarning.text(for: report, cap: 29)   // "2 of 3 clips left out: b.wav crosses the 29.0 s cap; the ringtone is 0.95 s"
/// ```
package enum RingtoneWarning {
    /// A ringtone shorter than this gets a warning however it came about.
    package static let shortestQuiet = 3.0

    /// The warning for a ringtone rendered as `report` under `cap`, or nil when it plays its
    /// playlist (or all the cap allows of a long first clip), is at least `shortestQuiet` long
    /// and on its loudness target; several are joined with "; ".
    package static func text(for report: RenderReport, cap: Double) -> String? {
        let found = [composition(of: report, cap: cap), report.loudness.shortfall.map { "loudness \($0.summary)" }].compactMap { $0 }
        return found.isEmpty ? nil : found.joined(separator: "; ")
    }

    private static func composition(of report: RenderReport, cap: Double) -> String? {
        let left = report.clips.filter { !$0.used }
        let seconds = String(format: "%.2f s", report.duration)
        if let first = report.clips.first(where: { !$0.used && $0.reason == Composition.CutReason.crossesCap.rawValue }) {
            let name = (first.input as NSString).lastPathComponent
            return "\(left.count) of \(report.clips.count) clips left out: \(name) crosses the \(String(format: "%.1f", cap)) s cap; the ringtone is \(seconds)"
        }
        if report.duration < shortestQuiet {
            return "the ringtone is only \(seconds) long (under \(String(format: "%.0f", shortestQuiet)) s)"
        }
        return nil
    }
}
