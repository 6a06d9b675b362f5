import VoiceAlarmCore

/// A planned ringtone played as a stream: the used clips at their offsets, silence in the gaps
/// and the frame padding, a chunk at a time. Each `play` reads the sources again, so a render
/// makes as many passes as it needs while holding a few chunks, never the whole ringtone.
struct MixStream {
    /// Samples per chunk: under a second at every rate.
    static let chunk = 8_192

    let sources: [any ClipSource]
    let composition: Composition
    /// The rate the sources are read at (for the length of the fades at clip edges).
    let sampleRate: Int

    /// Every sample of the ringtone, in order, to `sink` (`composition.totalSamples` in all).
    /// - Throws: `ClipSourceError` naming the source that could not be read; what `sink` throws.
    func play(into sink: (ArraySlice<Float>) throws -> Void) throws {
        do { try stream(into: sink) } catch let failure as SinkFailure { throw failure.underlying }
    }

    /// What the next stage threw, kept apart from the sources' own errors: an output that
    /// cannot be written is not a clip that cannot be read.
    private struct SinkFailure: Error { let underlying: any Error }

    private func stream(into sink: (ArraySlice<Float>) throws -> Void) throws {
        let silence = [Float](repeating: 0, count: Self.chunk)
        func silent(_ count: Int) throws {
            for start in stride(from: 0, to: count, by: Self.chunk) { try sink(silence[0..<min(Self.chunk, count - start)]) }
        }
        var position = 0
        for entry in composition.usedEntries {
            let start = entry.start!
            precondition(start >= position, "clip \(entry.index) planned at \(start), before the end of the one before (\(position))")
            try silent(start - position)
            var edges = ClipEdges(
                length: entry.length, sampleRate: sampleRate, fadeIn: start > 0,
                fadeOut: start + entry.length < composition.totalSamples, name: sources[entry.index].name)
            try RingtoneRenderer.attributing(to: entry.index) {
                try sources[entry.index].read(entry.length, chunk: Self.chunk) { samples in
                    try edges.pass(samples) { faded in
                        do { try sink(faded) } catch { throw SinkFailure(underlying: error) }
                    }
                }
            }
            precondition(edges.given == entry.length, "clip \(entry.index) gave \(edges.given) samples, \(entry.length) planned")
            position = start + entry.length
        }
        try silent(composition.totalSamples - position)
    }
}
