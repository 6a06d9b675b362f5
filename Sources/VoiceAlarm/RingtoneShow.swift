import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles

/// `voicealarm show`: a playlist's, the manifesto's, a clip's or an alarm's ringtone as it will
/// play — rendered with the library's settings into a private temporary folder (removed
/// afterwards), decoded, and drawn as a `RingtonePicture` with each clip's span from the render.
/// A target with no recording shows the default tone, and says so.
public struct RingtoneShow {
    /// What `show` found.
    public struct Shown: Sendable {
        public var subject: Previewer.Subject
        public var picture: RingtonePicture
        /// The render's report; nil when the default tone is shown.
        public var report: RenderReport?
        /// Why the default tone is shown instead of a ringtone.
        public var defaultTone: String?
    }

    let service: AlarmService

    public init(service: AlarmService) { self.service = service }

    /// Renders what `reference` names (as `listen` resolves it) and draws it.
    public func show(_ reference: String) throws -> Shown {
        let previewer = Previewer(service: service, shouldStop: { false })
        let subject = try previewer.subject(reference)
        let clips = try previewer.clips(of: subject)
        let settings = try service.settings.current()
        guard !clips.isEmpty else {
            let reason = DefaultToneReason.noRecording.description
            let samples = try DefaultTone.samples(sampleRate: settings.sampleRate)
            let span = RingtonePicture.Span(title: "default tone", start: 0, duration: Double(samples.count) / Double(settings.sampleRate), used: true, reason: nil)
            let picture = RingtonePicture(name: subject.description, samples: samples, sampleRate: settings.sampleRate, cap: settings.cap,
                                          spans: [span], note: "the default tone: \(reason)")
            return Shown(subject: subject, picture: picture, report: nil, defaultTone: reason)
        }
        let folder = try TemporaryFiles.makePrivateFolder(prefix: "voicealarm-show")
        TemporaryFiles.registerFolder(folder)
        defer { FileSystem.removeTree(folder); TemporaryFiles.unregisterFolder(folder) }
        let report = try LibraryRenderer().report(clips, settings: settings, clipsDirectory: service.clips.store.clipsDirectory,
                                                   to: "\(folder)/ringtone.\(settings.format.fileExtension)")
        let samples = try AudioDecoder(path: report.output, sampleRate: report.sampleRate).readAll()
        let picture = RingtonePicture(name: subject.description, samples: samples, sampleRate: report.sampleRate, cap: settings.cap,
                                      spans: Self.spans(report, clips: clips, settings: settings),
                                      loudness: report.loudness.integrated, truePeak: report.loudness.truePeak)
        return Shown(subject: subject, picture: picture, report: report, defaultTone: nil)
    }

    /// A rendered file drawn, its clips named by `titles` (`render --waveform`: file names).
    /// Clips left out are drawn in turn after the last one used; their lengths are not known
    /// without decoding them, so the one that crossed the cap is drawn reaching past it, the rest 2 s each.
    public static func picture(of report: RenderReport, titles: [String], settings: RenderSettings) throws -> RingtonePicture {
        precondition(titles.count == report.clips.count, "\(titles.count) titles for \(report.clips.count) clips")
        let samples = try AudioDecoder(path: report.output, sampleRate: report.sampleRate).readAll()
        var spans: [RingtonePicture.Span] = []
        var next = 0.0
        for (clip, title) in zip(report.clips, titles) {
            if clip.used, let start = clip.start {
                spans.append(.init(title: title, start: start, duration: clip.duration, used: true, reason: clip.reason))
                next = start + clip.duration + settings.gap
            } else {
                let length = spans.contains { !$0.used } ? 2 : max(2, settings.cap - next + 1.5)
                spans.append(.init(title: title, start: next, duration: length, used: false, reason: clip.reason))
                next += length + settings.gap
            }
        }
        return RingtonePicture(name: URL(fileURLWithPath: report.output).lastPathComponent, samples: samples, sampleRate: report.sampleRate,
                               cap: settings.cap, spans: spans, loudness: report.loudness.integrated, truePeak: report.loudness.truePeak)
    }

    /// The render's clips as spans with the library's titles; a clip left out is placed where it
    /// would have started, with its own (trimmed) length, so the picture shows it crossing the cap.
    static func spans(_ report: RenderReport, clips: [LibraryClip], settings: RenderSettings) -> [RingtonePicture.Span] {
        precondition(report.clips.count == clips.count, "a report of \(report.clips.count) clips for \(clips.count)")
        var spans: [RingtonePicture.Span] = []
        var next = 0.0
        for (entry, clip) in zip(report.clips, clips) {
            if entry.used, let start = entry.start {
                spans.append(.init(title: clip.title, start: start, duration: entry.duration, used: true, reason: entry.reason))
                next = start + entry.duration + settings.gap
            } else {
                let length = Double(settings.trimSilence ? clip.trimmedLength : clip.frames) / Double(clip.sampleRate)
                spans.append(.init(title: clip.title, start: next, duration: length, used: false, reason: entry.reason))
                next += length + settings.gap
            }
        }
        return spans
    }
}
