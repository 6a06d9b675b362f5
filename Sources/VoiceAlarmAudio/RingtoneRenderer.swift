import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// Turns recordings into one capped, loudness-normalised ringtone file.
///
/// The stages: measure each clip only as far as the cap needs (`ClipSource`), plan with the
/// measured lengths (`CompositionPlanner`), align to the codec's frames, lay the used clips out
/// with their gaps, measure loudness (libebur128) and the level profile in one pass, apply fades,
/// one gain and a limiter (libavfilter's), encode to a temporary file beside the target, decode
/// that file again to prove it is within the cap, shippable and under the true-peak ceiling, and
/// only then rename it into place.
///
/// ```swift
/// let sources = ["a.wav", "b.mp3"].map(DecodingClipSource.init(path:))
/// let report = try RingtoneRenderer().render(sources, settings: RenderSettings(), to: "morning.m4a")
/// ```
package struct RingtoneRenderer: Sendable {
    package init() {}

    /// Renders `sources`, in order, into `output` under `settings`.
    ///
    /// Each source is measured only while the plan has room, within the room left; a source
    /// after the first one left out is never measured or opened. Only the used clips are read.
    /// - Returns: the report of what was used, cut and measured.
    /// - Throws: `ClipSourceError` saying which source could not be read (or gave no samples);
    ///   `AudioError` naming the output when it cannot be written or fails its check. `output`
    ///   is then left as it was.
    package func render(_ sources: [any ClipSource], settings: RenderSettings, to output: String) throws -> RenderReport {
        precondition(!sources.isEmpty, "render needs at least one clip")
        precondition(settings.problem == nil, "invalid render settings: \(settings.problem ?? "")")
        try Self.checkWritable(output)

        var planner = CompositionPlanner(settings: settings)
        for (index, source) in sources.enumerated() {
            guard let budget = planner.budgetForNextClip else {
                planner.markRestUnreached(sources.count - index)
                break
            }
            planner.add(
                try Self.attributing(to: index) {
                    try source.measure(within: budget, trimSilence: settings.trimSilence, sampleRate: settings.sampleRate)
                })
        }
        var composition = planner.composition
        guard composition.totalSamples > 0 else {
            throw ClipSourceError(index: 0, underlying: .noSamples(path: sources[0].name))
        }
        if let frame = settings.codec.paddedFrameLength {
            composition = composition.alignedToFrames(of: frame, capSamples: settings.capSamples)
        }

        // The used clips at their planned offsets, silence in the gaps (and any frame padding),
        // streamed: each pass below reads the sources again a chunk at a time.
        let mix = MixStream(sources: sources, composition: composition, sampleRate: settings.sampleRate)
        let reports = clipReports(sources.map(\.name), composition, settings: settings) { sources[$0].silenceTrimmed }
        return try write(mix, clips: reports, settings: settings, to: output, nameIfSilent: sources.count == 1 ? sources[0].name : output)
    }

    /// Runs `body`, a step of the source at `index`, turning its `AudioError` into a
    /// `ClipSourceError` that says which source failed — unless the machine failed (memory,
    /// FFmpeg itself): that is no fault of the clip, which must not be left out for it.
    static func attributing<T>(to index: Int, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as AudioError where !error.isEnvironmental {
            throw ClipSourceError(index: index, underlying: error)
        }
    }

    /// The second half of every render, in streaming passes over `mix` (`RenderPasses`): the
    /// loudness and the level profile (one pass, when normalising); the gain that meets the target
    /// through the limiter, predicted from them; fades, gain and limiter into the encoder, to a
    /// temporary file beside `output`; the check of what was written, which confirms the loudness
    /// and the true peak; the rename into place. Only a miss costs another encoding (`LevelFitting`).
    private func write(
        _ mix: MixStream, clips: [RenderReport.ClipReport], settings: RenderSettings,
        to output: String, nameIfSilent: String
    ) throws -> RenderReport {
        let passes = RenderPasses(mix: mix, settings: settings, output: output)
        var count = RenderReport.Passes(measure: 0, encode: 0)
        // Normalising needs the loudness before the gain; without it, the check of the written
        // file below measures it (and refuses a silent result before anything is replaced). Either
        // way the measuring pass refuses an inaudible result (`Audibility`), as a silent one: the
        // gain and the limiter change its level, never which frequencies it holds.
        var plan: GainSearch?
        let (measured, audibility, profile) = try passes.measure(profiling: settings.normalize)
        count.measure += 1
        if settings.normalize { try Self.refuseSilent(measured, nameIfSilent) }
        try Self.refuseInaudible(audibility, measured, nameIfSilent)
        if settings.normalize {
            plan = GainSearch(
                loudness: measured.integrated, profile: profile!, target: settings.targetLUFS,
                ceiling: LevelFitting.ceiling(for: settings.codec))
        }
        let fades = RingtoneFilters.fades(mix.composition, settings: settings)
        let check: (SoundFacts, Loudness) throws -> Void = { facts, loudness in
            try verify(facts, settings: settings, output: output)
            try Self.refuseSilent(loudness, nameIfSilent)
        }
        let result = try AudioError.writing(output) {
            try FileSystem.atomicWrite(to: output) { temporary in
                guard let plan else {
                    let (facts, loudness) = try passes.encode(through: RingtoneFilters.chain(fades, nil), to: temporary)
                    count.encode += 1
                    try check(facts, loudness)
                    return LevelFitting.Result(facts: facts, loudness: loudness, shortfall: nil)
                }
                return try LevelFitting(passes: passes, fades: fades, check: check).run(plan, to: temporary, count: &count)
            }
        }
        let (facts, loudness) = (result.facts, result.loudness)
        let bytes = (try? FileStamp(path: output))?.size ?? 0
        return RenderReport(
            output: output, format: settings.format.rawValue, codec: settings.format.ffmpegCodecName(settings.codec),
            sampleRate: facts.sampleRate, channels: facts.channels, duration: facts.duration,
            bytes: bytes,
            loudness: .init(
                integrated: Self.round(loudness.integrated), truePeak: Self.round(loudness.truePeak),
                shortfall: result.shortfall),
            clips: clips, passes: count)
    }

    /// A muted microphone must not become a silent alarm.
    static func refuseSilent(_ loudness: Loudness, _ name: String) throws {
        guard loudness.isSilent else { return }
        throw AudioError.silent(
            path: name, detail: String(format: "the ringtone would measure %.1f LUFS, peak %.1f dBFS", loudness.integrated, loudness.samplePeak))
    }

    /// A ringtone no one hears from a bedside speaker is treated as silent (an 18.5 kHz or a
    /// 25 Hz tone). A silent mix is left to `refuseSilent`, which says so in its own words.
    static func refuseInaudible(_ audibility: Audibility, _ loudness: Loudness, _ name: String) throws {
        guard !loudness.isSilent, let problem = audibility.problem else { return }
        throw AudioError.inaudible(path: name, detail: problem)
    }

    /// The written file must decode within the cap and pass `voicealarm check`.
    private func verify(_ facts: SoundFacts, settings: RenderSettings, output: String) throws {
        var facts = facts
        facts.fileExtension = settings.format.fileExtension  // the temporary name has no meaningful extension
        if let problem = ShippableSound.problems(of: facts).first {
            throw AudioError.invalidOutput(path: output, reason: problem)
        }
        let decodedSamples = Int((facts.duration * Double(facts.sampleRate)).rounded())
        let allowance = settings.format == .mp3 ? Int(0.05 * Double(facts.sampleRate)) : 0
        if decodedSamples > settings.capSamples + allowance {
            throw AudioError.invalidOutput(path: output, reason: String(format: "it decodes to %.4f s, over the %.1f s cap", facts.duration, settings.cap))
        }
    }

    /// The composition, printed: `silenceCut(index)` gives the samples of silence trimmed from a clip.
    private func clipReports(
        _ names: [String], _ composition: Composition, settings: RenderSettings,
        silenceCut: (Int) -> Int
    ) -> [RenderReport.ClipReport] {
        let rate = Double(settings.sampleRate)
        return composition.entries.map { entry in
            let trimmed = entry.isUsed ? silenceCut(entry.index) : 0
            var reason = entry.reason?.rawValue
            if reason == nil, trimmed > 0 {
                reason = String(format: "silence trimmed (%.2f s)", Double(trimmed) / rate)
            }
            return .init(
                input: names[entry.index], used: entry.isUsed, start: entry.start.map { Self.round(Double($0) / rate) },
                duration: Self.round(Double(entry.length) / rate), trimmed: entry.reason != nil || trimmed > 0,
                reason: reason)
        }
    }

    /// Refuses an output that is a directory or sits in a folder that is missing or not writable.
    static func checkWritable(_ output: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), isDirectory.boolValue {
            throw AudioError.cannotWrite(path: output, reason: "is a directory")
        }
        let folder = (output as NSString).deletingLastPathComponent.isEmpty ? "." : (output as NSString).deletingLastPathComponent
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AudioError.cannotWrite(path: output, reason: "folder \(folder) does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw AudioError.cannotWrite(path: output, reason: "folder \(folder) is not writable")
        }
    }

    static func round(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
