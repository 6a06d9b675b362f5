import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles

/// `voicealarm show`: a playlist's, the manifesto's, a clip's or an alarm's ringtone as it will
/// play — rendered with the library's settings into a private temporary folder (removed
/// afterwards), decoded, and drawn as a `RingtonePicture` with each clip's span from the render.
/// A target with no recording shows the default tone, and says so.
package struct RingtoneShow {
    /// What `show` found.
    package struct Shown: Sendable {
        package var subject: Previewer.Subject
        package var picture: RingtonePicture
        /// The render's report; nil when the default tone is shown.
        package var report: RenderReport?
        /// Why the default tone is shown instead of a ringtone.
        package var defaultTone: String?
    }

    let service: AlarmService

    package init(service: AlarmService) { self.service = service }

    /// Renders what `reference` names (as `listen` resolves it) and draws it.
    package func show(_ reference: String) throws -> Shown {
        let previewer = Previewer(service: service, shouldStop: { false })
        let subject = try previewer.subject(reference)
        let clips = try previewer.clips(of: subject)
        let settings = try service.settings.current()
        guard !clips.isEmpty else {
            let reason = DefaultToneReason.noRecording.description
            let samples = try DefaultTone.samples(sampleRate: settings.sampleRate)
            let span = RingtonePicture.Span(
                title: "default tone", start: 0, duration: Double(samples.count) / Double(settings.sampleRate), used: true, reason: nil)
            let picture = RingtonePicture(
                name: subject.description, samples: samples, sampleRate: settings.sampleRate, cap: settings.cap,
                spans: [span], note: "the default tone: \(reason)")
            return Shown(subject: subject, picture: picture, report: nil, defaultTone: reason)
        }
        // A left-out clip is drawn with its own (trimmed) length, so the picture shows it crossing the cap.
        let lengths = clips.map { Double(settings.trimSilence ? $0.trimmedLength : $0.frames) / Double($0.sampleRate) }
        return try LibraryRenderer().renderPrivately(clips, settings: settings, clipsDirectory: service.clips.store.clipsDirectory) { report in
            let picture = try Self.picture(of: report, titles: clips.map(\.title), name: subject.description, settings: settings, lengths: lengths)
            return Shown(subject: subject, picture: picture, report: report, defaultTone: nil)
        }
    }

    /// Writes `picture` as SVG `width` pixels wide, whole or not at all.
    package static func write(_ picture: RingtonePicture, to path: String, width: Int) throws {
        try FileSystem.atomicWrite(Data(picture.svg(width: width).utf8), to: path, permissions: 0o644, durable: false)
    }

    /// A rendered file drawn, its clips named by `titles` and the picture by `name` (the file's
    /// name when nil). A clip left out is drawn where it would have started, `lengths[i]` long
    /// when known; otherwise (files not decoded past the cap) the one that crossed the cap is
    /// drawn reaching past it, the rest 2 s each.
    package static func picture(
        of report: RenderReport, titles: [String], name: String? = nil, settings: RenderSettings,
        lengths: [Double]? = nil
    ) throws -> RingtonePicture {
        precondition(
            titles.count == report.clips.count && (lengths?.count ?? titles.count) == titles.count,
            "\(titles.count) titles, \(lengths?.count ?? 0) lengths for \(report.clips.count) clips")
        let samples = try AudioDecoder(path: report.output, sampleRate: report.sampleRate).readAll()
        var spans: [RingtonePicture.Span] = []
        var next = 0.0
        for (index, (clip, title)) in zip(report.clips, titles).enumerated() {
            if clip.used, let start = clip.start {
                spans.append(.init(title: title, start: start, duration: clip.duration, used: true, reason: clip.reason))
                next = start + clip.duration + settings.gap
            } else {
                let length = lengths?[index] ?? (spans.contains { !$0.used } ? 2 : max(2, settings.cap - next + 1.5))
                spans.append(.init(title: title, start: next, duration: length, used: false, reason: clip.reason))
                next += length + settings.gap
            }
        }
        return RingtonePicture(
            name: name ?? URL(fileURLWithPath: report.output).lastPathComponent, samples: samples,
            sampleRate: report.sampleRate, cap: settings.cap, spans: spans,
            loudness: report.loudness.integrated, truePeak: report.loudness.truePeak)
    }
}
