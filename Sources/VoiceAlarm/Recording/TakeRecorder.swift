import Foundation
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmFiles

/// Records one take from a capture source into a take file, as it arrives, until told to stop,
/// `maxSeconds` of frames are captured, or (after speech) `stopOnSilence` seconds of silence.
///
/// Nothing is lost: every chunk is written before the next is read, overruns are recovered and
/// counted, and a device that fails mid-take ends the take with what was captured so far.
package final class TakeRecorder {
    package struct Options: Sendable {
        /// Stop after this many seconds of captured frames (not wall time).
        package var maxSeconds: Double?
        /// After speech, stop when this many seconds pass below the silence threshold.
        package var stopOnSilence: Double?
        package init(maxSeconds: Double? = nil, stopOnSilence: Double? = nil) {
            self.maxSeconds = maxSeconds
            self.stopOnSilence = stopOnSilence
        }
    }

    /// The level of the last chunk, for the meter.
    package struct Level: Sendable {
        /// dBFS of the largest sample.
        package var peak: Double
        /// dBFS of the root mean square.
        package var rms: Double
        /// A sample at full scale: the input is too loud.
        package var clipping: Bool
    }

    package enum StopReason: Equatable, Sendable {
        case asked, maxSeconds, silence, deviceFailed
    }

    /// What was captured.
    package struct Take: Sendable {
        package var path: String
        package var frames: Int
        package var sampleRate: Int
        package var overruns: Int
        package var peak: Double
        package var reason: StopReason
        /// Why the device stopped delivering, when it did.
        package var failure: String?
        package var duration: Double { Double(frames) / Double(sampleRate) }
    }

    /// Speech is a chunk peaking above this (dBFS); silence stays below the trim threshold.
    package static let speechPeakDBFS = -40.0

    let source: CaptureSource
    let writer: TakeWriter
    let shouldStop: () -> Bool
    let onLevel: (Level, Int) -> Void

    /// - Parameters:
    ///   - shouldStop: polled between chunks (Enter, SIGINT, SIGTERM).
    ///   - onLevel: called after each chunk with its level and the frames captured so far.
    package init(
        source: CaptureSource, writer: TakeWriter, shouldStop: @escaping () -> Bool,
        onLevel: @escaping (Level, Int) -> Void = { _, _ in }
    ) {
        precondition(source.sampleRate == writer.sampleRate && source.channels == writer.channels, "the take file must match the device")
        self.source = source
        self.writer = writer
        self.shouldStop = shouldStop
        self.onLevel = onLevel
    }

    package func record(_ options: Options) -> Take {
        let rate = source.sampleRate, channels = source.channels
        let chunk = max(1, rate / 10)
        let limit = options.maxSeconds.map { Int($0 * Double(rate)) }
        let silentLevel = AudioLevels.amplitude(dB: AudioLevels.trimThresholdDBFS) * 32768
        let speechLevel = AudioLevels.amplitude(dB: Self.speechPeakDBFS) * 32768
        var overruns = 0, peakAll = 0.0, heardSpeech = false, silentFrames = 0
        var reason = StopReason.asked
        var failure: String?

        while !shouldStop() {
            if let limit, writer.frames >= limit { reason = .maxSeconds; break }
            let wanted = limit.map { min(chunk, $0 - writer.frames) } ?? chunk
            let read: CaptureChunk
            do { read = try source.read(frames: wanted) } catch {
                reason = .deviceFailed
                failure = SystemError.text(of: error)
                break
            }
            guard case .samples(let samples) = read else { overruns += 1; continue }
            guard !samples.isEmpty else { continue }
            do { try writer.append(samples) } catch {
                reason = .deviceFailed
                failure = SystemError.text(of: error)
                break
            }
            var peak = 0.0, sum = 0.0
            for sample in samples {
                let value = Double(sample)
                peak = max(peak, abs(value))
                sum += value * value
            }
            peakAll = max(peakAll, peak)
            let frames = samples.count / channels
            let level = Level(
                peak: AudioLevels.decibels(amplitude: peak / 32768),
                rms: AudioLevels.decibels(amplitude: (sum / Double(samples.count)).squareRoot() / 32768),
                clipping: peak >= 32767)
            onLevel(level, writer.frames)
            if peak > speechLevel { heardSpeech = true }
            silentFrames = peak > silentLevel ? 0 : silentFrames + frames
            if let stopOnSilence = options.stopOnSilence, heardSpeech, Double(silentFrames) >= stopOnSilence * Double(rate) {
                reason = .silence
                break
            }
        }
        writer.close()
        return Take(
            path: writer.path, frames: writer.frames, sampleRate: rate, overruns: overruns,
            peak: AudioLevels.decibels(amplitude: peakAll / 32768), reason: reason, failure: failure)
    }
}
