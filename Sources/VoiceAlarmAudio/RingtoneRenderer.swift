import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// Turns recordings into one capped, loudness-normalised ringtone file.
///
/// The stages: measure each clip only as far as the cap needs (`ClipSource`), plan with the
/// measured lengths (`CompositionPlanner`), align to the codec's frames, lay the used clips out
/// with their gaps, measure loudness with libavfilter's `ebur128`, apply fades, one gain and a
/// limiter, encode to a temporary file beside the target, decode that file again to prove it is
/// within the cap, shippable and under the true-peak ceiling, and only then rename it into place.
///
/// ```swift
/// let sources = ["a.wav", "b.mp3"].map(DecodingClipSource.init(path:))
/// let report = try RingtoneRenderer().render(sources, settings: RenderSettings(), to: "morning.m4a")
/// ```
package struct RingtoneRenderer: Sendable {
    package init() {}

    /// How many times the limited audio is turned down and encoded again when the encoded true
    /// peak comes out above the ceiling (apart from the encodings that correct the gain).
    static let truePeakAttempts = 4
    /// The encoded true peak accepted, 0.2 dB under the ceiling so that another meter
    /// (another resampler for the oversampling) cannot find the ceiling crossed.
    static let acceptedTruePeak = AudioLevels.truePeakCeilingDBTP - 0.2
    /// Encodings at most while the gain is corrected towards the target (the first included).
    static let encodings = 4
    /// Passes that only measure, at most, to confirm a gain the model is not trusted with
    /// (`GainSearch.trustedLoss`) before the one encoding.
    static let confirmations = 3
    /// How much further than the excess an encoded ringtone over the true-peak ceiling is turned
    /// down (dB): the codec's peaks move a little with the level, not exactly by it. (Lowering
    /// the limiter instead, the gain predicted again to keep the loudness, was tried: on our
    /// corpus of difficult recordings the denser audio overshot by 1 dB more, so more ringtones
    /// ended under the target, not fewer.)
    static let trimMargin = 0.2

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
            planner.add(try Self.attributing(to: index) {
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

    /// The second half of every render, in streaming passes over `mix`: the loudness and the
    /// level profile (one pass); the gain that meets the target through the limiter, predicted
    /// from them; fades, gain and limiter into the encoder, to a temporary file beside `output`;
    /// the check of what was written, which confirms the loudness; the rename into place. Only a
    /// miss (the file measured off target, or over the true-peak ceiling) costs another encoding.
    private func write(_ mix: MixStream, clips: [RenderReport.ClipReport], settings: RenderSettings,
                       to output: String, nameIfSilent: String) throws -> RenderReport {
        // The limiter sits under the accepted true peak: 1.4 dB for AAC and MP3, which raise the
        // true peak (with 0.8 dB, one speech ringtone in five overshot and was encoded again;
        // with 1.4 dB, one in ten, the codec's own large overshoots), 0.3 dB for the others
        // (16-bit PCM, IMA4). When the encoded file still peaks too high, the
        // limited audio is turned down as a whole (a plain trim after the limiter; the true-peak
        // ceiling wins over the loudness target) and encoded again — lowering the limiter instead
        // would be undone by the gain matching and only make the signal denser, which AAC
        // overshoots more.
        let ceiling = Self.acceptedTruePeak - ([.aac, .mp3].contains(settings.codec) ? 1.4 : 0.3)
        var passes = RenderReport.Passes(measure: 0, encode: 0)
        // Normalising needs the loudness before the gain; without it, the check of the written
        // file below measures it (and refuses a silent result before anything is replaced).
        var plan: GainSearch?
        if settings.normalize {
            let (measured, profile) = try measure(mix, through: nil, profiling: true, settings: settings, path: output)
            passes.measure += 1
            try Self.refuseSilent(measured, nameIfSilent)
            plan = GainSearch(loudness: measured.integrated, profile: profile!, target: settings.targetLUFS, ceiling: ceiling)
        }
        let fades = RingtoneFilters.fades(mix.composition, settings: settings)
        // Heavy limiting is where the model strays: the gain is confirmed (and corrected) by
        // passes that only measure, far cheaper than encoding again after a miss.
        if var search = plan, search.predictedLoss > GainSearch.trustedLoss {
            for _ in 0..<Self.confirmations {
                let (measured, _) = try measure(mix, through: RingtoneFilters.chain(fades, search, trim: 0), profiling: false,
                                                settings: settings, path: output)
                passes.measure += 1
                guard search.correct(measured: measured.integrated) else { break }
            }
            plan = search
        }
        let (facts, loudness, shortfall) = try AudioError.writing(output) {
            try FileSystem.atomicWrite(to: output) { temporary in
                var trim = 0.0
                var trims = 0
                while true {
                    let chain = RingtoneFilters.chain(fades, plan, trim: trim)
                    let (facts, loudness) = try encode(mix, through: chain, settings: settings, to: temporary, output: output)
                    passes.encode += 1
                    try verify(facts, settings: settings, output: output)
                    try Self.refuseSilent(loudness, nameIfSilent)
                    guard settings.normalize, var search = plan else { return (facts, loudness, LoudnessShortfall?.none) }
                    let excess = loudness.truePeak - Self.acceptedTruePeak
                    if excess > 0 {
                        guard trims < Self.truePeakAttempts else {
                            throw AudioError.invalidOutput(path: output, reason: String(format: "true peak %.2f dBTP stays above %.1f dBTP after encoding", loudness.truePeak, AudioLevels.truePeakCeilingDBTP))
                        }
                        trims += 1
                        trim -= excess + Self.trimMargin
                        continue
                    }
                    let over = loudness.integrated - settings.targetLUFS
                    // Once turned down for the true peak, more gain would only be limited harder.
                    if trim == 0 {
                        if passes.encode < Self.encodings, search.correct(measured: loudness.integrated) {
                            plan = search
                            continue
                        }
                        // Still over the target when the corrections are spent: turned down by the
                        // excess, a change of level alone, which lands on the target.
                        if over > GainSearch.tolerance {
                            trim = -over
                            continue
                        }
                    }
                    // The true-peak trim is the reason only when it explains the gap.
                    let reason: LoudnessShortfall.Reason = trim < 0 && -over <= -trim + 0.1 ? .truePeak : search.heldBack ?? .unsettled
                    return (facts, loudness, LoudnessShortfall.of(loudness.integrated, target: settings.targetLUFS, reason: reason))
                }
            }
        }
        let bytes = (try? FileStamp(path: output))?.size ?? 0
        return RenderReport(
            output: output, format: settings.format.rawValue, codec: settings.format.ffmpegCodecName(settings.codec),
            sampleRate: facts.sampleRate, channels: facts.channels, duration: facts.duration,
            bytes: bytes, loudness: .init(integrated: Self.round(loudness.integrated), truePeak: Self.round(loudness.truePeak),
                                          shortfall: shortfall),
            clips: clips, passes: passes)
    }

    /// A pass that only measures: the loudness of `mix` through `filters` (none: as it is; no true
    /// peak, choosing the gain needs none), and, when asked, its level profile on the way.
    private func measure(_ mix: MixStream, through filters: String?, profiling: Bool, settings: RenderSettings,
                         path: String) throws -> (Loudness, LevelProfile?) {
        let meter = try LoudnessMeter(sampleRate: settings.sampleRate, path: path, truePeak: false)
        var profile = profiling ? LevelProfile(sampleRate: settings.sampleRate) : nil
        try play(mix, through: filters, settings: settings, path: path) {
            profile?.add($0)
            try meter.push($0)
        }
        profile?.finish()
        return (try meter.finish(), profile)
    }

    /// One pass: `mix` through `filters` into the encoder, writing `temporary`, then the check of
    /// what was written. A lossy file is decoded and measured (loudness and true peak in one
    /// streaming pass, `SoundInspector`). For 16-bit PCM the samples written are known exactly:
    /// they are measured as they are written, and the file is read back and must hold exactly
    /// them (container, codec, count and a digest of the samples), with no second measurement.
    private func encode(_ mix: MixStream, through filters: String, settings: RenderSettings,
                        to temporary: String, output: String) throws -> (SoundFacts, Loudness) {
        guard settings.codec == .pcm16 else {
            try write(mix, through: filters, settings: settings, to: temporary, output: output, sixteenBit: nil)
            let check = try SoundInspector.inspect(temporary, measureLoudness: true)
            return (check.facts, check.loudness!)
        }
        let digest = try PCMDigest()
        let meter = try LoudnessMeter(sampleRate: settings.sampleRate, path: output)
        try write(mix, through: filters, settings: settings, to: temporary, output: output) { try meter.push(digest.add($0)[...]) }
        // What the file holds must be what the encoder was given: a difference is the machine's
        // (storage, or the writer), never the recordings', so the old ringtone is kept.
        let written: SoundInspector.ReadBack
        do { written = try SoundInspector.readBack(temporary) } catch let error as AudioError {
            throw AudioError.cannotWrite(path: output, reason: "it cannot be read back (\(error))")
        }
        guard written.count == digest.count else {
            throw AudioError.cannotWrite(path: output, reason: "it reads back as \(written.count) samples, \(digest.count) were written")
        }
        guard written.digest == digest.finish() else {
            throw AudioError.cannotWrite(path: output, reason: "its samples read back unlike those written")
        }
        let asked = settings.format.ffmpegCodecName(settings.codec)
        guard written.facts.codec == asked, written.facts.sampleRate == settings.sampleRate, written.facts.channels == 1 else {
            throw AudioError.cannotWrite(path: output, reason: "it reads back as \(written.facts.codec) \(written.facts.sampleRate) Hz, \(written.facts.channels) channels, not \(asked) \(settings.sampleRate) Hz mono")
        }
        return (written.facts, try meter.finish())
    }

    /// Encodes `mix` through `filters` into `temporary`; `sixteenBit` sees the samples a 16-bit
    /// encoder is given, as it takes them. The encoder is gone when this returns, before anything
    /// reads the file. A lossy encoder runs on a thread of its own (`ChunkPipe`), a few chunks
    /// behind the sources and filters; 16-bit PCM costs too little to be worth the hand-over.
    private func write(_ mix: MixStream, through filters: String, settings: RenderSettings, to temporary: String,
                       output: String, sixteenBit: ((UnsafeBufferPointer<Int16>) throws -> Void)?) throws {
        let writer = try RingtoneEncoder(settings: settings).open(temporary)
        writer.onSixteenBit = sixteenBit
        if settings.codec == .pcm16 {
            try play(mix, through: filters, settings: settings, path: output) { try writer.append($0) }
        } else {
            try ChunkPipe.run(produce: { send in
                try withoutActuallyEscaping(send) { try play(mix, through: filters, settings: settings, path: output, into: $0) }
            }, consume: { try writer.append($0) })
        }
        try writer.finish()
    }

    /// Streams `mix` through `filters` (none: as it is) to `sink`, every sample of it.
    private func play(_ mix: MixStream, through filters: String?, settings: RenderSettings, path: String,
                      into sink: @escaping (ArraySlice<Float>) throws -> Void) throws {
        var count = 0
        let counted: (ArraySlice<Float>) throws -> Void = { count += $0.count; try sink($0) }
        if let filters {
            let chain = try FilterChain(description: filters, sampleRate: settings.sampleRate, path: path, keepSamples: false)
            chain.onOutput = counted
            try mix.play { try chain.push($0) }
            _ = try chain.finish()
        } else {
            try mix.play(into: counted)
        }
        precondition(count == mix.composition.totalSamples, "filters changed the ringtone's length (\(mix.composition.totalSamples) → \(count))")
    }

    /// A muted microphone must not become a silent alarm.
    static func refuseSilent(_ loudness: Loudness, _ name: String) throws {
        guard loudness.isSilent else { return }
        throw AudioError.silent(path: name, detail: String(format: "the ringtone would measure %.1f LUFS, peak %.1f dBFS", loudness.integrated, loudness.samplePeak))
    }

    /// The written file must decode within the cap and pass `voicealarm check`.
    private func verify(_ facts: SoundFacts, settings: RenderSettings, output: String) throws {
        var facts = facts
        facts.fileExtension = settings.format.fileExtension   // the temporary name has no meaningful extension
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
    private func clipReports(_ names: [String], _ composition: Composition, settings: RenderSettings,
                             silenceCut: (Int) -> Int) -> [RenderReport.ClipReport] {
        let rate = Double(settings.sampleRate)
        return composition.entries.map { entry in
            let trimmed = entry.isUsed ? silenceCut(entry.index) : 0
            var reason = entry.reason?.rawValue
            if reason == nil, trimmed > 0 {
                reason = String(format: "silence trimmed (%.2f s)", Double(trimmed) / rate)
            }
            return .init(input: names[entry.index], used: entry.isUsed, start: entry.start.map { Self.round(Double($0) / rate) },
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
