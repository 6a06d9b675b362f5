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
        let rate = decoder.sampleRate
        let threshold = Float(AudioLevels.amplitude(dB: AudioLevels.trimThresholdDBFS))
        let silentPeak = Float(AudioLevels.amplitude(dB: AudioLevels.silentPeakDBFS))
        let pad = Int(AudioLevels.trimPadding * Double(rate))
        let keepLimit = budget + pad + 1

        var raw: [Float] = []           // the untrimmed start, for a clip with nothing to trim
        var content: [Float] = []       // from `pad` samples before the first loud one
        var preroll: [Float] = []       // recent samples before any loud one (at least the last `pad`)
        var firstLoud: Int?             // index of the first sample above the trim threshold
        var contentStart = 0            // index where `content` begins
        var lastLoud = -1               // index of the last loud sample, relative to `contentStart`
        var total = 0
        var peak: Float = 0
        var stoppedEarly = false

        reading: while let chunk = try decoder.read(upTo: 8192) {
            for sample in chunk {
                let level = abs(sample)
                peak = max(peak, level)
                if raw.count < keepLimit { raw.append(sample) }
                defer { total += 1 }
                if !trimSilence {
                    if total >= budget { stoppedEarly = true; break reading }
                    continue
                }
                if firstLoud == nil {
                    guard level > threshold else {
                        preroll.append(sample)
                        if preroll.count >= 2 * pad + 1 { preroll.removeFirst(preroll.count - pad) }
                        continue
                    }
                    firstLoud = total
                    content = Array(preroll.suffix(pad))
                    contentStart = total - content.count
                    preroll = []
                }
                if content.count < keepLimit { content.append(sample) }
                if level > threshold { lastLoud = total - contentStart }
                if lastLoud + 1 > budget { stoppedEarly = true; break reading }
            }
        }

        if total == 0 { throw AudioError.noSamples(path: decoder.path) }
        if !stoppedEarly, peak <= silentPeak {
            throw AudioError.silent(path: decoder.path, detail: "no sample above \(Int(AudioLevels.silentPeakDBFS)) dBFS")
        }
        guard trimSilence, firstLoud != nil else {
            // Nothing trimmed: the clip is its raw samples.
            let extent: ClipExtent = stoppedEarly || total > budget ? .longerThan(budget) : .exact(total)
            return ClipReading(samples: raw, extent: extent, leadingTrimmed: 0, trailingTrimmed: stoppedEarly ? nil : 0)
        }
        if stoppedEarly {
            return ClipReading(samples: content, extent: .longerThan(budget), leadingTrimmed: contentStart, trailingTrimmed: nil)
        }
        let contentLength = total - contentStart
        let length = min(lastLoud + 1 + pad, contentLength)
        return ClipReading(samples: Array(content.prefix(length)), extent: .exact(length),
                           leadingTrimmed: contentStart, trailingTrimmed: contentLength - length)
    }
}
