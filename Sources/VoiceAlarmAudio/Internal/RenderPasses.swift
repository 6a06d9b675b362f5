import VoiceAlarmCore

/// The passes a render makes over its mix, each streaming every sample once: a pass that only
/// measures (the loudness and, when asked, the level profile), and a pass that encodes to a file
/// and checks what was written.
struct RenderPasses {
    let mix: MixStream
    let settings: RenderSettings
    /// The file being made, for error messages.
    let output: String

    /// A pass that only measures: the loudness of the mix as it is (no true peak: choosing the
    /// gain needs none), its audibility (the speech band's loudness against it, `SpeechBandMeter`),
    /// and, when asked, its level profile on the way. The meters and the profile take the chunks
    /// on a second thread (`ChunkPipe`) while this one decodes and mixes the next.
    func measure(profiling: Bool) throws -> (Loudness, Audibility, LevelProfile?) {
        let measuring = Measuring(
            meter: try LoudnessMeter(sampleRate: settings.sampleRate, path: output, truePeak: false),
            band: try SpeechBandMeter(sampleRate: settings.sampleRate, path: output),
            profile: profiling ? LevelProfile(sampleRate: settings.sampleRate) : nil)
        try ChunkPipe.run(
            produce: { send in
                try withoutActuallyEscaping(send) { try play(through: nil, into: $0) }
            }, consume: { try measuring.take($0) })
        measuring.profile?.finish()
        let loudness = try measuring.meter.finish()
        return (loudness, try measuring.band.finish(), measuring.profile)
    }

    /// What a measuring pass gathers, handed to the pipe's thread and read back once it is done.
    private final class Measuring {
        let meter: LoudnessMeter
        let band: SpeechBandMeter
        var profile: LevelProfile?
        init(meter: LoudnessMeter, band: SpeechBandMeter, profile: LevelProfile?) {
            self.meter = meter
            self.band = band
            self.profile = profile
        }
        func take(_ samples: ArraySlice<Float>) throws {
            profile?.add(samples)
            try meter.push(samples)
            try band.push(samples)
        }
    }

    /// One pass: the mix through `filters` into the encoder, writing `temporary`, then the check of
    /// what was written. A lossy file is decoded and measured (loudness and true peak in one
    /// streaming pass, `SoundInspector`). For 16-bit PCM the samples written are known exactly:
    /// they are measured as they are written, and the file is read back and must hold exactly them (container, codec, count and a digest of the
    /// samples), with no second measurement.
    func encode(through filters: String, to temporary: String) throws -> (SoundFacts, Loudness) {
        guard settings.codec == .pcm16 else {
            try write(through: filters, to: temporary, sixteenBit: nil)
            let check = try SoundInspector.inspect(temporary, measureLoudness: true)
            return (check.facts, check.loudness!)
        }
        let digest = try PCMDigest()
        let meter = try LoudnessMeter(sampleRate: settings.sampleRate, path: output)
        try write(through: filters, to: temporary) { try meter.push(digest.add($0)[...]) }
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
            throw AudioError.cannotWrite(
                path: output,
                reason:
                    "it reads back as \(written.facts.codec) \(written.facts.sampleRate) Hz, \(written.facts.channels) channels, not \(asked) \(settings.sampleRate) Hz mono"
            )
        }
        return (written.facts, try meter.finish())
    }

    /// Encodes the mix through `filters` into `temporary`; `sixteenBit` sees the samples a 16-bit
    /// encoder is given, as it takes them. The encoder is gone when this returns, before anything
    /// reads the file. A lossy encoder runs on a thread of its own (`ChunkPipe`), a few chunks
    /// behind the sources and filters; 16-bit PCM costs too little to be worth the hand-over.
    private func write(
        through filters: String, to temporary: String,
        sixteenBit: ((UnsafeBufferPointer<Int16>) throws -> Void)?
    ) throws {
        let writer = try RingtoneEncoder(settings: settings).open(temporary)
        writer.onSixteenBit = sixteenBit
        if settings.codec == .pcm16 {
            try play(through: filters) { try writer.append($0) }
        } else {
            try ChunkPipe.run(
                produce: { send in
                    try withoutActuallyEscaping(send) { try play(through: filters, into: $0) }
                }, consume: { try writer.append($0) })
        }
        try writer.finish()
    }

    /// Streams the mix through `filters` (none: as it is) to `sink`, every sample of it.
    private func play(through filters: String?, into sink: @escaping (ArraySlice<Float>) throws -> Void) throws {
        var count = 0
        let counted: (ArraySlice<Float>) throws -> Void = {
            count += $0.count; try sink($0)
        }
        if let filters {
            let chain = try FilterChain(description: filters, sampleRate: settings.sampleRate, path: output, keepSamples: false)
            chain.onOutput = counted
            try mix.play { try chain.push($0) }
            _ = try chain.finish()
        } else {
            try mix.play(into: counted)
        }
        precondition(count == mix.composition.totalSamples, "filters changed the ringtone's length (\(mix.composition.totalSamples) → \(count))")
    }
}
