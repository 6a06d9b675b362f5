import VoiceAlarmCore

/// A clip read as far as planning needs: its samples with silence trimmed from both ends,
/// and how long it is (exactly, or only that it is longer than the room left).
struct ClipReading {
    /// The clip's trimmed audio at the output rate: all of it when `extent` is exact,
    /// else at least the first `budget` samples.
    var samples: [Float]
    var extent: ClipExtent
    /// Samples of leading silence dropped.
    var leadingTrimmed: Int
    /// Samples of trailing silence dropped; nil when the clip was not read to its end.
    var trailingTrimmed: Int?
}

/// Reads a clip no further than the cap needs.
///
/// Reading stops once the clip is known not to fit in `budget` samples: with silence trimming,
/// when a sample above the threshold lies past the budget; without, when the budget is passed.
/// Only the first `budget` (plus padding) samples are kept, so memory stays bounded even when a
/// long tail must be scanned for more speech.
enum ClipReader {
    static func read(_ decoder: AudioDecoder, budget: Int, trimSilence: Bool) throws -> ClipReading {
        var scan = SilenceScan(sampleRate: decoder.sampleRate)
        let pad = scan.padding
        let keepLimit = budget + pad + 1

        // The untrimmed start, for a clip with nothing to trim: when trimming, dropped at the
        // first loud sample (from then on `content` holds the clip), so one copy is kept, not two.
        var raw: [Float] = []
        var content: [Float] = []  // from `pad` samples before the first loud one
        var preroll: [Float] = []  // recent samples before any loud one (at least the last `pad`)
        var contentStart = 0  // index where `content` begins
        var stoppedEarly = false

        reading: while let chunk = try decoder.read(upTo: 8192) {
            for sample in chunk {
                let index = scan.total
                let loud = scan.feed(sample)
                if raw.count < keepLimit, !trimSilence || scan.firstLoud == nil { raw.append(sample) }
                if !trimSilence {
                    if index >= budget { stoppedEarly = true; break reading }
                    continue
                }
                if scan.firstLoud == nil {
                    preroll.append(sample)
                    if preroll.count >= 2 * pad + 1 { preroll.removeFirst(preroll.count - pad) }
                    continue
                }
                if loud, scan.firstLoud == index {
                    content = Array(preroll.suffix(pad))
                    contentStart = index - content.count
                    preroll = []
                    raw = []
                }
                if content.count < keepLimit { content.append(sample) }
                if scan.lastLoud! - contentStart + 1 > budget { stoppedEarly = true; break reading }
            }
        }

        if scan.total == 0 { throw AudioError.noSamples(path: decoder.path) }
        if !stoppedEarly, scan.isSilent {
            throw AudioError.silent(path: decoder.path, detail: "no sample above \(Int(AudioLevels.silentPeakDBFS)) dBFS")
        }
        guard trimSilence, scan.firstLoud != nil else {
            // Nothing trimmed: the clip is its raw samples.
            let extent: ClipExtent = stoppedEarly || scan.total > budget ? .longerThan(budget) : .exact(scan.total)
            return ClipReading(samples: raw, extent: extent, leadingTrimmed: 0, trailingTrimmed: stoppedEarly ? nil : 0)
        }
        if stoppedEarly {
            return ClipReading(samples: content, extent: .longerThan(budget), leadingTrimmed: contentStart, trailingTrimmed: nil)
        }
        let range = scan.trimmedRange
        precondition(range.start == contentStart, "trim start \(range.start) differs from the content kept at \(contentStart)")
        return ClipReading(
            samples: Array(content.prefix(range.length)), extent: .exact(range.length),
            leadingTrimmed: range.start, trailingTrimmed: scan.total - range.start - range.length)
    }
}
