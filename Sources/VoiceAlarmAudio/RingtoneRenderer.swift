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
public struct RingtoneRenderer: Sendable {
    public init() {}

    /// How many times encoding is retried with a lower limiter ceiling when the encoded
    /// true peak comes out above the ceiling.
    static let truePeakAttempts = 4
    /// The encoded true peak accepted, 0.2 dB under the ceiling so that another meter
    /// (another resampler for the oversampling) cannot find the ceiling crossed.
    static let acceptedTruePeak = AudioLevels.truePeakCeilingDBTP - 0.2
    /// Gain matching stops when the processed audio is this close to the target (LU).
    static let loudnessTolerance = 0.2
    /// Gains tried at most through the limiter, each measured in a pass over the ringtone.
    static let gainPasses = 3

    /// Renders `sources`, in order, into `output` under `settings`.
    ///
    /// Each source is measured only while the plan has room, within the room left; a source
    /// after the first one left out is never measured or opened. Only the used clips are read.
    /// - Returns: the report of what was used, cut and measured.
    /// - Throws: `ClipSourceError` saying which source could not be read (or gave no samples);
    ///   `AudioError` naming the output when it cannot be written or fails its check. `output`
    ///   is then left as it was.
    public func render(_ sources: [any ClipSource], settings: RenderSettings, to output: String) throws -> RenderReport {
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
        let mix = MixStream(sources: sources, composition: composition)
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

    /// The second half of every render, in streaming passes over `mix`: loudness; the gain that
    /// meets the target through the limiter; then fades, gain and limiter into the encoder, to a
    /// temporary file beside `output`; the check of what was written; the rename into place.
    private func write(_ mix: MixStream, clips: [RenderReport.ClipReport], settings: RenderSettings,
                       to output: String, nameIfSilent: String) throws -> RenderReport {
        // Normalising needs the loudness before the gain; without it, the check of the written
        // file below measures it (and refuses a silent result before anything is replaced).
        var before: Loudness?
        if settings.normalize {
            let measured = try measure(mix, through: nil, settings: settings, path: output)
            try Self.refuseSilent(measured, nameIfSilent)
            before = measured
        }

        // Lossy codecs raise the true peak: the limiter sits 1.4 dB lower for them (with 0.8 dB,
        // one speech ringtone in five overshot and was encoded again; with 1.4 dB, one in ten,
        // the codec's own large overshoots). When the encoded file still peaks too high, the
        // limited audio is turned down as a whole (a plain trim after the limiter; the true-peak
        // ceiling wins over the loudness target) and encoded again — lowering the limiter instead
        // would be undone by the gain matching and only make the signal denser, which AAC
        // overshoots more.
        let ceiling = Self.acceptedTruePeak - ([.aac, .mp3].contains(settings.codec) ? 1.4 : 0.3)
        let filters = try processing(mix, loudness: before, ceiling: ceiling, settings: settings, path: output)
        let (facts, loudness) = try AudioError.writing(output) {
            try FileSystem.atomicWrite(to: output) { temporary in
                var trim = 0.0
                var attempt = 0
                while true {
                    attempt += 1
                    let chain = trim == 0 ? filters : filters + String(format: ",volume=%.3fdB:precision=float", trim)
                    let (facts, loudness) = try encode(mix, through: chain, settings: settings, to: temporary, output: output)
                    try verify(facts, settings: settings, output: output)
                    try Self.refuseSilent(loudness, nameIfSilent)
                    let excess = loudness.truePeak - Self.acceptedTruePeak
                    guard settings.normalize, excess > 0 else { return (facts, loudness) }
                    guard attempt < Self.truePeakAttempts else {
                        throw AudioError.invalidOutput(path: output, reason: String(format: "true peak %.2f dBTP stays above %.1f dBTP after encoding", loudness.truePeak, AudioLevels.truePeakCeilingDBTP))
                    }
                    trim -= excess + 0.3
                }
            }
        }
        let bytes = (try? FileStamp(path: output))?.size ?? 0
        return RenderReport(
            output: output, format: settings.format.rawValue, codec: settings.format.ffmpegCodecName(settings.codec),
            sampleRate: facts.sampleRate, channels: facts.channels, duration: facts.duration,
            bytes: bytes, loudness: .init(integrated: Self.round(loudness.integrated), truePeak: Self.round(loudness.truePeak)),
            clips: clips)
    }

    /// The filters every sample goes through: fades, then (when normalising) one gain towards
    /// the target and a limiter at `ceiling` dBFS, all libavfilter's. The limiter takes some
    /// loudness off peaky speech — about half of each decibel added, on speech — so each
    /// candidate gain is measured in a pass of its own: the second adds twice the first's
    /// shortfall, the third goes where the line through the first two meets the target (at most
    /// `maximumGainDB` in all).
    private func processing(_ mix: MixStream, loudness: Loudness?, ceiling: Double, settings: RenderSettings, path: String) throws -> String {
        let rate = settings.sampleRate
        let total = mix.composition.totalSamples
        let fadeIn = min(Int(AudioLevels.fadeIn * Double(rate)), total / 2)
        let fadeOut = min(Int((mix.composition.endsOnCut ? AudioLevels.fadeOutAtCut : AudioLevels.fadeOut) * Double(rate)), total / 2)
        let fades = "afade=t=in:ss=0:ns=\(max(1, fadeIn)),afade=t=out:ss=\(total - fadeOut):ns=\(max(1, fadeOut))"
        guard settings.normalize, let loudness else { return fades }

        let limit = max(0.0625, AudioLevels.amplitude(dB: ceiling))
        var gain = min(settings.targetLUFS - loudness.integrated, AudioLevels.maximumGainDB)
        var filters = fades
        var previous: (gain: Double, shortfall: Double)?
        for _ in 0..<Self.gainPasses {
            filters = fades + String(format: ",volume=%.3fdB:precision=float,alimiter=limit=%.5f:level=false:latency=true:attack=5:release=50", gain, limit)
            let shortfall = settings.targetLUFS - (try measure(mix, through: filters, settings: settings, path: path)).integrated
            guard abs(shortfall) > Self.loudnessTolerance, gain < AudioLevels.maximumGainDB else { break }
            var next = gain + 2 * shortfall
            if let previous, previous.gain != gain {
                // The slope the limiter showed between the two gains; a flat or rising one is noise.
                let slope = (shortfall - previous.shortfall) / (gain - previous.gain)
                if slope < -0.05 { next = gain - shortfall / slope }
            }
            previous = (gain, shortfall)
            gain = min(next, AudioLevels.maximumGainDB)
        }
        return filters
    }

    /// One pass: the loudness of `mix`, through `filters` when given (no true peak: the passes
    /// that choose the gain need none).
    private func measure(_ mix: MixStream, through filters: String?, settings: RenderSettings, path: String) throws -> Loudness {
        let meter = try LoudnessMeter(sampleRate: settings.sampleRate, path: path, truePeak: false)
        try play(mix, through: filters, settings: settings, path: path) { try meter.push($0) }
        return try meter.finish()
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
